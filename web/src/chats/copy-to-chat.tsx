// Copying one answer, with its question, into another of the person's chats or into a new one. The
// copy shows "Copied from another chat" where an answer shows its credits (the server records the
// source chat and charges nothing).
import { useState } from 'react';
import { Link } from 'react-router';
import { api, call } from '../api/client.ts';
import { DialogButton } from '../ui/dialog-button.tsx';
import { FormAlert } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import { useLoad } from '../ui/use-load.ts';

/** How many recent chats the picker offers: enough to find one, a short list to read. */
const CHOICES = 50;
const NEW_CHAT = '';

export function CopyToChat({ chatId, answerUuid }: { chatId: string; answerUuid: string }) {
  return (
    <DialogButton label="Copy to chat" titleId={`copy-title-${answerUuid}`}>
      {(close) => <CopyPanel chatId={chatId} answerUuid={answerUuid} onClose={close} />}
    </DialogButton>
  );
}

function CopyPanel({ chatId, answerUuid, onClose }: { chatId: string; answerUuid: string; onClose: () => void }) {
  const chats = useLoad((signal) => call(api.GET('/api/chat_history', { params: { query: { limit: CHOICES } }, signal })));
  const [target, setTarget] = useState(NEW_CHAT);
  const [copied, setCopied] = useState<{ chatId: string; title: string } | undefined>();
  const choices = (chats.data?.chats ?? []).filter((c) => c.chat_id !== chatId && !c.archived);
  const copy = useAction(async () => {
    const targetChatId = target === NEW_CHAT ? crypto.randomUUID() : target;
    await call(api.POST('/api/copy_message_to_chat', { body: { chat_id: chatId, message_uuid: answerUuid, target_chat_id: targetChatId } }));
    setCopied({ chatId: targetChatId, title: choices.find((c) => c.chat_id === target)?.title || 'a new chat' });
  });
  return (
    <>
      <h2 id={`copy-title-${answerUuid}`}>Copy this answer to a chat</h2>
      <p className="muted">The question and its answer are added at the end of the chat you choose, with their tables and SQL. Copying costs no credits.</p>
      <FormAlert problem={chats.problem ?? copy.problem} />
      {copied ? (
        <p role="status">
          Copied to {copied.title}. <Link to={`/chat/${encodeURIComponent(copied.chatId)}`} onClick={onClose}>Open it</Link>
        </p>
      ) : (
        <label>
          Chat
          <select value={target} onChange={(e) => setTarget(e.target.value)} disabled={chats.loading && !chats.data}>
            <option value={NEW_CHAT}>A new chat</option>
            {choices.map((c) => (
              <option key={c.chat_id} value={c.chat_id}>
                {c.title || 'Untitled chat'}
              </option>
            ))}
          </select>
        </label>
      )}
      <div className="actions">
        {!copied && (
          <button type="button" className="primary" disabled={copy.pending} onClick={() => void copy.run()}>
            Copy
          </button>
        )}
        <button type="button" onClick={onClose}>
          {copied ? 'Done' : 'Cancel'}
        </button>
      </div>
    </>
  );
}
