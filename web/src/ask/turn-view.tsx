// One question and its answer in a chat, with the owner's actions on each once nothing is running.
import { AnswerActions } from '../chats/answer-actions.tsx';
import { QuestionActions } from '../chats/question-actions.tsx';
import { useMe } from '../session/session.tsx';
import { AnswerView } from './answer-view.tsx';
import type { Turn } from './turns.ts';

interface TurnViewProps {
  turn: Turn;
  chatId: string;
  /** The owner's actions are offered (a recorded chat, nothing running). */
  editable: boolean;
  first: boolean;
  last: boolean;
  onChanged: () => Promise<void>;
}

export function TurnView({ turn, chatId, editable, first, last, onChanged }: TurnViewProps) {
  const { answer } = turn;
  const me = useMe();
  return (
    <article className="turn">
      {turn.question !== undefined && (
        <>
          <h2 className="visually-hidden">Question</h2>
          <div className="question">{turn.question}</div>
          {editable && turn.questionUuid && <QuestionActions chatId={chatId} questionUuid={turn.questionUuid} first={first} last={last} onChanged={onChanged} />}
        </>
      )}
      {answer ? (
        <AnswerView
          answer={answer}
          chatId={chatId}
          operatorNotes={me.role === 'admin'}
          actions={
            editable && answer.answerUuid ? (
              <AnswerActions chatId={chatId} answerUuid={answer.answerUuid} queried={answer.queries.length > 0 || answer.tables.length > 0} results={answer.tables} onChanged={onChanged} />
            ) : undefined
          }
        />
      ) : (
        <p className="muted">No answer.</p>
      )}
    </article>
  );
}
