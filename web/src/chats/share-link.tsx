// One public link: open it, copy it, or stop sharing (the link then shows nothing).
import { api, call } from '../api/client.ts';
import { CopyButton } from '../ui/copy-button.tsx';
import { FormAlert } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';

export interface Share {
  chat_id: string;
  page_url: string;
}

export function ShareLink({ share, what, onStopped }: { share: Share; what: string; onStopped: () => void }) {
  const stop = useAction(async () => {
    await call(api.POST('/api/delete_shared_chat', { body: { chat_id: share.chat_id } }));
    onStopped();
  });
  return (
    <div className="share-link" role="group" aria-label={`Link to ${what}`}>
      <a href={share.page_url} target="_blank" rel="noopener noreferrer" className="url">
        {share.page_url}
      </a>
      <CopyButton text={share.page_url} label="Copy link" />
      <button type="button" className="danger" disabled={stop.pending} onClick={() => void stop.run()}>
        Stop sharing
      </button>
      <FormAlert problem={stop.problem} />
    </div>
  );
}
