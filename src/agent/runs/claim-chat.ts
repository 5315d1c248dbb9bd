// A start's claim on its chat: the checks, the history (read before the question joins the chat),
// the question, the chat it may create and the run, as one piece of work stored with the other starts
// of this turn (CommitGroup). Its reads run inside that write transaction, without a read transaction
// (and its file locks) of their own. One run per chat runs at a time across replicas: this replica's
// by its own list (a start of this turn is not stored yet), the others' by the store.
import type { Principal } from '../../auth/index.ts';
import type { Clock } from '../../clock.ts';
import type { CommitGroup, Db } from '../../store/index.ts';
import type { AgentPorts } from '../ports.ts';
import { checkCreditLimit } from '../usage/credit-limits.ts';
import { insertRun, latestRun, type NewRunRow, type RunRow } from './event-log.ts';
import { ChatNotFound, RunInProgress } from './run-errors.ts';
import type { RunLiveness } from './run-liveness.ts';

type History = { role: 'user' | 'assistant'; content: string }[];

export interface ChatClaims {
  db: Db;
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
  history?: History;
  hidden?: boolean;
  ports: AgentPorts;
  environment: { id: string; name: string } | undefined;
}

/** The chat's running run belongs to a lost replica (thrown inside the start's writes, handled below). */
class LostRunInChat extends Error {
  constructor(readonly run: RunRow) {
    super("the chat's running run belongs to a lost replica");
  }
}

/**
 * Claims the chat for a new run and returns the history the run answers with: ChatNotFound for
 * another user's chat, RunInProgress while a live replica runs one in it. A lost replica's run in the
 * chat is failed now rather than at the next sweep, and the question goes in.
 */
export async function claimChat(c: ChatClaims, principal: Principal, input: ClaimInput, run: NewRunRow): Promise<History> {
  try {
    return await claimOnce(c, principal, input, run);
  } catch (err) {
    if (!(err instanceof LostRunInChat)) throw err;
    c.liveness.sweepChat(err.run);
    return claimOnce(c, principal, input, run);
  }
}

async function claimOnce(c: ChatClaims, principal: Principal, input: ClaimInput, run: NewRunRow): Promise<History> {
  const { db, ports, environment } = { ...c, ...input };
  const chatKey = `${principal.orgId}/${input.chatId}`;
  let claimed = false;
  return c.startWrites
    .run(() => {
      const previous = latestRun(db, principal.orgId, input.chatId);
      if (previous && previous.user_id !== principal.userId) throw new ChatNotFound();
      if (c.busyChats.has(chatKey)) throw new RunInProgress();
      if (previous?.status === 'running') throw c.liveness.isLost(previous) ? new LostRunInChat(previous) : new RunInProgress();
      checkCreditLimit(db, principal, c.clock.now());
      const history = input.history ?? ports.chats.history(principal, input.chatId);
      ports.chats.recordUserMessage(principal, { chatId: input.chatId, content: input.message, messageUuid: run.message_uuid, ...(environment ? { environment } : {}), ...(input.hidden ? { hidden: true } : {}) });
      insertRun(db, run, c.replicaId);
      c.busyChats.add(chatKey);
      claimed = true;
      return history;
    })
    .catch((err: unknown) => {
      // A commit that failed after the work claimed the chat gives it back.
      if (claimed) c.busyChats.delete(chatKey);
      throw err;
    });
}
