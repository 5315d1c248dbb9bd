// Thumbs up or down on an answer, with an optional comment.
import { useState } from 'react';
import { api, call } from '../api/client.ts';
import { useAction } from '../ui/use-action.ts';

export function RatingBar({ chatId, answerUuid }: { chatId: string; answerUuid: string }) {
  const [rating, setRating] = useState<'positive' | 'negative' | undefined>();
  const [comment, setComment] = useState('');
  const [sent, setSent] = useState(false);
  const send = useAction(async (r: 'positive' | 'negative' | undefined, text: string) => {
    await call(api.POST('/api/feedback', { body: { chat_id: chatId, message_uuid: answerUuid, ...(r ? { rating: r } : {}), ...(text.trim() ? { comment: text.trim() } : {}) } }));
    setSent(true);
  });
  const rate = (r: 'positive' | 'negative') => {
    setRating(r);
    setSent(false);
    void send.run(r, '');
  };
  return (
    <div className="rating">
      <button type="button" aria-pressed={rating === 'positive'} onClick={() => rate('positive')} aria-label="Good answer">
        👍
      </button>
      <button type="button" aria-pressed={rating === 'negative'} onClick={() => rate('negative')} aria-label="Bad answer">
        👎
      </button>
      {rating && (
        <form
          className="rating"
          onSubmit={(e) => {
            e.preventDefault();
            void send.run(rating, comment);
          }}
        >
          <label className="visually-hidden" htmlFor={`comment-${answerUuid}`}>
            Comment on this answer
          </label>
          <input id={`comment-${answerUuid}`} value={comment} onChange={(e) => setComment(e.target.value)} placeholder="What was good or wrong? (optional)" style={{ width: '18rem' }} />
          <button type="submit" disabled={send.pending || !comment.trim()}>
            Send comment
          </button>
        </form>
      )}
      {sent && <span className="muted" role="status">Thanks for the feedback.</span>}
      {send.problem && (
        <span className="field-error" role="alert">
          {send.problem.message}
        </span>
      )}
    </div>
  );
}
