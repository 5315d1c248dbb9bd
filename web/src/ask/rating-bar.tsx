// Thumbs up or down on an answer, with an optional comment.
import { useState } from 'react';

/** A thumb drawn in SVG (emoji fonts are not everywhere); `down` turns it over. */
function Thumb({ down = false }: { down?: boolean }) {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" style={down ? { transform: 'rotate(180deg)' } : undefined}>
      <path fill="currentColor" d="M2 21h4V9H2v12zm20-11a2 2 0 0 0-2-2h-6.3l1-4.6v-.3c0-.4-.2-.8-.4-1.1L13.2 1 6.6 7.6C6.2 7.9 6 8.4 6 9v10a2 2 0 0 0 2 2h9c.8 0 1.5-.5 1.8-1.2l3-7.1c.1-.2.2-.5.2-.7v-2z" />
    </svg>
  );
}
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
        <Thumb />
      </button>
      <button type="button" aria-pressed={rating === 'negative'} onClick={() => rate('negative')} aria-label="Bad answer">
        <Thumb down />
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
