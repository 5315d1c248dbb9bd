// What the owner can do with one question of a chat: move it (with its answer) up or down, or
// delete it. The chat is read again afterwards, and the keyboard focus stays on the moved question.
import { api, call } from '../api/client.ts';
import { ConfirmButton } from '../ui/confirm-button.tsx';
import { FormAlert } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';

interface QuestionActionsProps {
  chatId: string;
  questionUuid: string;
  first: boolean;
  last: boolean;
  /** Reads the chat again. */
  onChanged: () => Promise<void>;
}

/** The element ids of a question's move buttons, so focus can find them after the list moved. */
const moveId = (uuid: string, direction: 'up' | 'down') => `move-${direction}-${uuid}`;

export function QuestionActions({ chatId, questionUuid, first, last, onChanged }: QuestionActionsProps) {
  const move = useAction(async (direction: 'up' | 'down') => {
    await call(api.POST('/api/save_message_order', { body: { chat_id: chatId, message_uuid: questionUuid, direction, block_mode: true } }));
    await onChanged();
    requestAnimationFrame(() => {
      const same = document.getElementById(moveId(questionUuid, direction)) as HTMLButtonElement | null;
      (same && !same.disabled ? same : document.getElementById(moveId(questionUuid, direction === 'up' ? 'down' : 'up')))?.focus();
    });
  });
  const remove = useAction(async () => {
    await call(api.POST('/api/deleteMessage', { body: { chat_id: chatId, message_uuid: questionUuid } }));
    await onChanged();
  });
  return (
    <div className="message-actions" role="group" aria-label="Question actions">
      <button type="button" id={moveId(questionUuid, 'up')} disabled={first || move.pending} onClick={() => void move.run('up')} aria-label="Move up, with its answer">
        <span aria-hidden="true">↑</span> Move up
      </button>
      <button type="button" id={moveId(questionUuid, 'down')} disabled={last || move.pending} onClick={() => void move.run('down')} aria-label="Move down, with its answer">
        <span aria-hidden="true">↓</span> Move down
      </button>
      <ConfirmButton question="Delete this question? Its answer stays." label="Delete this question" onConfirm={() => remove.run()}>
        Delete
      </ConfirmButton>
      <FormAlert problem={move.problem ?? remove.problem} />
    </div>
  );
}
