// What the owner can do with one question of a chat: move it (with its answer) up or down, or
// delete it, behind one "More actions" button so that the chat reads as questions and answers. The
// chat is read again afterwards, and the keyboard focus stays on the moved question.
import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
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

/**
 * Puts the focus on the moved question's button in the same direction (or the other one at an end).
 * The buttons stay disabled until the move's re-render has committed, which on a busy machine can be
 * a few frames after the chat was read again: try again on each frame for about half a second.
 */
function focusMoved(uuid: string, direction: 'up' | 'down', frames = 30): void {
  requestAnimationFrame(() => {
    const usable = (d: 'up' | 'down') => {
      const button = document.getElementById(moveId(uuid, d)) as HTMLButtonElement | null;
      return button && !button.disabled ? button : undefined;
    };
    const target = usable(direction) ?? usable(direction === 'up' ? 'down' : 'up');
    if (target) target.focus();
    else if (frames > 0) focusMoved(uuid, direction, frames - 1);
  });
}

export function QuestionActions({ chatId, questionUuid, first, last, onChanged }: QuestionActionsProps) {
  const move = useAction(async (direction: 'up' | 'down') => {
    await call(api.POST('/api/save_message_order', { body: { chat_id: chatId, message_uuid: questionUuid, direction, block_mode: true } }));
    await onChanged();
    focusMoved(questionUuid, direction);
  });
  const remove = useAction(async () => {
    await call(api.POST('/api/deleteMessage', { body: { chat_id: chatId, message_uuid: questionUuid } }));
    await onChanged();
  });
  return (
    <ActionsMenu>
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
    </ActionsMenu>
  );
}

/** The actions folded behind a button that says whether they are shown; Escape folds them and gives the focus back. */
function ActionsMenu({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const id = useId();
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'Escape' || !open) return;
    setOpen(false);
    button.current?.focus();
  };
  return (
    <div className="question-menu" onKeyDown={onKeyDown}>
      <button ref={button} type="button" className="menu-button" aria-expanded={open} aria-controls={id} aria-label="More actions on this question" onClick={() => setOpen((o) => !o)}>
        <span aria-hidden="true">⋯</span>
      </button>
      <div id={id} className="message-actions" role="group" aria-label="Question actions" hidden={!open}>
        {children}
      </div>
    </div>
  );
}
