// What the owner can do with one finished answer: see where its data came from, share it alone,
// copy it into another chat, or delete it.
import { useState } from 'react';
import { api, call } from '../api/client.ts';
import { SaveQuestion } from '../saved/save-question.tsx';
import { ConfirmButton } from '../ui/confirm-button.tsx';
import { CopyToChat } from './copy-to-chat.tsx';
import { FormAlert } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import { LineagePanel, type ResultRef } from './lineage-panel.tsx';
import { ShareLink, type Share } from './share-link.tsx';

interface AnswerActionsProps {
  chatId: string;
  answerUuid: string;
  /** The answer ran queries: it has a lineage. */
  queried: boolean;
  /** The answer's result tables, to name the queries of the lineage after them. */
  results: ResultRef[];
  onChanged: () => Promise<void>;
}

export function AnswerActions({ chatId, answerUuid, queried, results, onChanged }: AnswerActionsProps) {
  const [share, setShare] = useState<Share | undefined>();
  const create = useAction(async () => setShare(await call(api.POST('/api/share_message', { body: { chat_id: chatId, message_uuid: answerUuid } }))));
  const remove = useAction(async () => {
    await call(api.POST('/api/deleteMessage', { body: { chat_id: chatId, message_uuid: answerUuid } }));
    await onChanged();
  });
  return (
    <>
      {queried && <LineagePanel chatId={chatId} answerUuid={answerUuid} results={results} />}
      <div className="message-actions" role="group" aria-label="Answer actions">
        {queried && <SaveQuestion chatId={chatId} answerUuid={answerUuid} />}
        {!share && (
          <button type="button" disabled={create.pending} onClick={() => void create.run()}>
            Share this answer
          </button>
        )}
        <CopyToChat chatId={chatId} answerUuid={answerUuid} />
        <ConfirmButton question="Delete this answer?" label="Delete this answer" onConfirm={() => remove.run()}>
          Delete
        </ConfirmButton>
      </div>
      {share && <ShareLink share={share} what="this answer" onStopped={() => setShare(undefined)} />}
      <FormAlert problem={create.problem ?? remove.problem} />
    </>
  );
}
