// The head of an open chat: its title and what its owner can do with it (pin, archive, share,
// labels). Every change comes back as the chat's record, which the history sidebar takes at once.
import { api, call } from '../api/client.ts';
import { FormAlert } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import type { ChatSummary } from './chat-list.tsx';
import { LabelEditor } from './label-editor.tsx';
import { ShareDialog } from './share-dialog.tsx';

export function ChatToolbar({ chat, onChange }: { chat: ChatSummary; onChange: (chat: ChatSummary) => void }) {
  const pin = useAction(async () => onChange(await call(api.POST('/api/pinChat', { body: { chat_id: chat.chat_id, pinned: !chat.pinned } }))));
  const archive = useAction(async () => onChange(await call(api.POST('/api/archive_chat', { body: { chat_id: chat.chat_id, archived: !chat.archived } }))));
  return (
    <header className="chat-header">
      <div className="row">
        <h1>{chat.title || 'Untitled chat'}</h1>
        {chat.environment && <span className="tag">Environment: {chat.environment}</span>}
        {chat.archived && <span className="tag">Archived</span>}
        <span className="spacer" />
        {/* Not disabled while pending: a disabled button would drop the keyboard focus. */}
        <button type="button" onClick={() => !pin.pending && void pin.run()}>
          {chat.pinned ? 'Unpin' : 'Pin'}
        </button>
        <button type="button" onClick={() => !archive.pending && void archive.run()}>
          {chat.archived ? 'Unarchive' : 'Archive'}
        </button>
        <ShareDialog chatId={chat.chat_id} />
      </div>
      <FormAlert problem={pin.problem ?? archive.problem} />
      <LabelEditor chat={chat} onChange={onChange} />
    </header>
  );
}
