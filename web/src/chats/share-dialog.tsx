// Sharing a chat: a dialog that lists the chat's public links (the whole chat, single answers),
// makes a link to the whole chat (a new random address each time), and stops any of them. A link
// shows the displayed messages read-only.
import { api, call } from '../api/client.ts';
import { DialogButton } from '../ui/dialog-button.tsx';
import { FormAlert } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import { useLoad } from '../ui/use-load.ts';
import { ShareLink } from './share-link.tsx';

export function ShareDialog({ chatId }: { chatId: string }) {
  return (
    <DialogButton label="Share" titleId="share-title">
      {(close) => <SharePanel chatId={chatId} onClose={close} />}
    </DialogButton>
  );
}

function SharePanel({ chatId, onClose }: { chatId: string; onClose: () => void }) {
  const shares = useLoad((signal) => call(api.GET('/api/shared_chats', { params: { query: { chat_id: chatId } }, signal })), chatId);
  const share = useAction(async () => {
    await call(api.POST('/api/share_chat', { body: { chat_id: chatId } }));
    await shares.reload();
  });
  const list = shares.data?.shares ?? [];
  const whole = list.find((s) => s.message_uuid === null);
  const answers = list.filter((s) => s.message_uuid !== null);
  return (
    <>
      <h2 id="share-title">Share this chat</h2>
      <p className="muted">Anyone with a link can read the questions and answers it shows, with the rows of their result tables, without signing in. They cannot ask anything or run a query. Each link is a new random address; a link you stop never works again.</p>
      <FormAlert problem={shares.problem ?? share.problem} />
      {shares.loading && !shares.data && <p role="status">Loading the links…</p>}
      {shares.data && (
        <>
          <h3>The whole chat</h3>
          {whole ? (
            <ShareLink share={whole} what="the whole chat" onStopped={() => void shares.reload()} />
          ) : (
            <button type="button" className="primary" disabled={share.pending} onClick={() => void share.run()}>
              Create a link to the whole chat
            </button>
          )}
          {answers.length > 0 && (
            <>
              <h3>Single answers</h3>
              {answers.map((s, i) => (
                <ShareLink key={s.chat_id} share={s} what={`shared answer ${i + 1}`} onStopped={() => void shares.reload()} />
              ))}
            </>
          )}
        </>
      )}
      <div className="actions">
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </>
  );
}
