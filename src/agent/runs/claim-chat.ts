// A start's claim on its chat: the checks, then the question through the chats' store (asynchronous,
// perhaps another database), then the run's insert, committed with other starts (CommitGroup, a few
// at a time). The chat's history is read by the run itself (execute-run.ts), off the path to
// run_started. One run per chat runs at a time across replicas: this replica's by its own list (taken
// before the first await), the others' by the store's unique index on running runs, which refuses
// the insert. A start refused by the first checks leaves the chat untouched; one refused by the
// second (another replica started a run in the chat meanwhile) leaves its question without an
// answer, as a failed run does.
import type { Principal } from '../../auth/index.ts';
import type { Clock } from '../../clock.ts';
import type { CommitGroup } from '../../store/index.ts';
import type { AgentPorts } from '../ports.ts';
import { checkCreditLimit } from '../usage/credit-limits.ts';
import { insertRunQuery, latestRun, type NewRunRow, type RunRow } from './event-log.ts';
import { ChatNotFound, RunInProgress } from './run-errors.ts';
import type { RunLiveness } from './run-liveness.ts';
import type { AgentStore } from './tables.ts';

export interface ChatClaims {
  store: AgentStore;
  clock: Clock;
  startWrites: CommitGroup;
  /** Chats (`org/chat`) with a run of this replica starting or running. */
  busyChats: Set<string>;
  liveness: RunLiveness;
  replicaId: string;
}

export interface ClaimInput {
  chatId: string;
  message: string;
  hidden?: boolean;
  ports: AgentPorts;
  environment: { id: string; name: string } | undefined;
}

/** The chat's running run belongs to a lost replica (thrown by the first checks, handled below). */
class LostRunInChat extends Error {
  constructor(readonly run: RunRow) {
    super("the chat's running run belongs to a lost replica");
  }
}

/**
 * Claims the chat for a new run: ChatNotFound for
 * another user's chat, RunInProgress while a live replica runs one in it. A lost replica's run in the
 * chat is failed now rather than at the next sweep, and the question goes in.
 */
export async function claimChat(c: ChatClaims, principal: Principal, input: ClaimInput, run: NewRunRow): Promise<Claimed> {
  try {
    return await claimOnce(c, principal, input, run);
  } catch (err) {
    if (!(err instanceof LostRunInChat)) throw err;
    await c.liveness.sweepChat(err.run);
    return claimOnce(c, principal, input, run);
  }
}

/** What the claim found: whether the question is the chat's first message (the run then reads no history). */
export interface Claimed {
  firstMessage: boolean;
}

async function claimOnce(c: ChatClaims, principal: Principal, input: ClaimInput, run: NewRunRow): Promise<Claimed> {
  const { ports, environment } = input;
  const chatKey = `${principal.orgId}/${input.chatId}`;
  // Owner first: another user's chat is not found, whether busy or not.
  await checkClaim(c, principal, input.chatId, (previous) => (c.liveness.isLost(previous) ? new LostRunInChat(previous) : new RunInProgress()));
  if (c.busyChats.has(chatKey)) throw new RunInProgress();
  c.busyChats.add(chatKey);
  try {
    // The chat's history is read by the run (execute-run.ts), off the path to run_started.
    const question = await ports.chats.recordUserMessage(principal, { chatId: input.chatId, content: input.message, messageUuid: run.message_uuid, ...(environment ? { environment } : {}), ...(input.hidden ? { hidden: true } : {}) });
    // The question is in: a run started meanwhile (by another replica) is refused, not swept and retried.
    if ((await c.startWrites.run(insertRunQuery(run, c.replicaId))).changes === 0) throw new RunInProgress();
    return { firstMessage: question.position === 0 };
  } catch (err) {
    // A start that failed after claiming the chat gives it back.
    c.busyChats.delete(chatKey);
    throw err;
  }
}

/** Throws unless the caller may start a run in the chat now; `running` names the error for a running run. */
async function checkClaim(c: ChatClaims, principal: Principal, chatId: string, running: (previous: RunRow) => Error): Promise<void> {
  const previous = await latestRun(c.store, principal.orgId, chatId);
  if (previous && previous.user_id !== principal.userId) throw new ChatNotFound();
  if (previous?.status === 'running') throw running(previous);
  await checkCreditLimit(c.store, principal, c.clock.now());
}
