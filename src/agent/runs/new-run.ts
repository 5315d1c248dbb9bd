// The row of a new run, before it is stored: its ids, who asked what, and the model that answers.
import { randomUUID } from 'node:crypto';
import type { Principal } from '../../auth/index.ts';
import type { Clock } from '../../clock.ts';
import { newId } from '../../security/index.ts';
import type { LlmProvider } from '../providers/types.ts';
import type { NewRunRow } from './event-log.ts';

export function newRunRow(
  principal: Principal,
  input: { chatId: string; message: string; environmentId: string | undefined },
  { clock, provider }: { clock: Clock; provider: LlmProvider },
): NewRunRow {
  return {
    id: newId(),
    org_id: principal.orgId,
    user_id: principal.userId,
    chat_id: input.chatId,
    message_uuid: randomUUID(),
    answer_uuid: randomUUID(),
    environment_id: input.environmentId ?? null,
    provider: provider.name,
    model: provider.model,
    question: input.message,
    created_at: clock.now(),
  };
}
