// Runs: one per chat message, executed in the background. Every event joins the run's log (the
// journal, committed in groups every few milliseconds) before it is delivered; subscribers replay
// the log and then follow live. Feedback and stop requests reach the loop through a small control object.
import type { Principal } from '../../auth/index.ts';
import { ChatNotFound, ServiceShuttingDown } from './run-errors.ts';
import { newId } from '../../security/index.ts';
import { CommitGroup } from '../../store/index.ts';
import type { AgentEvent, StoredEvent } from '../events.ts';
import type { KnowledgeSource } from '../ports.ts';
import { DEFAULT_TOOLS, type AgentTool } from '../tools/index.ts';
import { getRun, insertFeedback, latestRun, userRunOfMessage, type RunRow } from './event-log.ts';
import { EventJournal } from './event-journal.ts';
import { executeRun, type ActiveRun, type ExecuteDeps } from './execute-run.ts';
import { runResult, type RunResult } from './run-result.ts';
import { LiveBus } from './live-bus.ts';
import { memoryBus, type BusSubscription, type MessageBus } from '../../ops/bus/index.ts';
import { askOwner, CONTROL_CHANNEL, type ControlAnswer, type ControlRequest } from './run-control.ts';
import { StartQueue } from './start-queue.ts';
import { newRunRow } from './new-run.ts';
import { followRun } from './follow-run.ts';
import { RunLiveness, type Ticker } from './run-liveness.ts';
import { endsLostRun } from './lost-runs.ts';
import { claimChat, type ChatClaims } from './claim-chat.ts';

/** What a run executes with (execute-run.ts), the tools defaulted, and what the manager itself needs. */
export interface AgentDeps extends Omit<ExecuteDeps, 'tools' | 'emit'> {
  tools?: AgentTool[];
  /** Aborted at shutdown: runs end and streams close. */
  shutdown: AbortSignal;
  /** Told how each run ended and how long it took (metrics, tracing). */
  observeRun?: (runId: string, status: string, seconds: number) => void;
  /** What replicas share (events, stop and feedback); this process's memory by default. */
  bus?: MessageBus;
  /** This process among the replicas sharing the store (the owner of the runs it starts); random by default. */
  replicaId?: string;
  /** What times heartbeats and sweeps of lost runs (run-liveness.ts); an interval timer by default. */
  ticker?: Ticker;
  /**
   * The store is this process's alone (SQLite behind the data folder's lock): a run found running at
   * start was left by a process that is gone, whatever its heartbeat says, and is failed at once
   * instead of after the lost-replica threshold.
   */
  exclusiveStore?: boolean;
}

/**
 * Run starts sharing one commit at most. Under a burst, a group of the whole turn made every asker's
 * `run_started` wait for the last start's work (200 starts: p50 of the first event = its p99); groups
 * of 8 answer the first askers while the rest arrive, for a commit per 8 starts (tens of µs each).
 */
const STARTS_PER_COMMIT = 8;

export interface StartRunInput {
  chatId: string;
  message: string;
  environmentId: string | undefined;
  appPreview?: unknown;
  /** Start a quick-fix session: production questions run in a new throwaway environment. */
  quickFix?: boolean;
  /** Earlier turns given by the client (agentic_with_history); else the chat's own history. */
  history?: { role: 'user' | 'assistant'; content: string }[];
  /** Knowledge for this run instead of the service's (evaluation runs pin it to one commit). */
  knowledge?: KnowledgeSource;
  /** A new chat stays out of the user's history and search (evaluation answers). */
  hidden?: boolean;
}

export interface StartedRun {
  /** The run as stored when it started. */
  row: RunRow;
  /** Settles when the run has finished and its answer is recorded. */
  done: Promise<RunRow>;
}

/** The agent service: starts runs, lets their owner follow, steer and stop them. */
export class AgentRuns {
  readonly bus: LiveBus;
  /** Heartbeats of this replica's runs and the sweep of lost replicas' runs. */
  readonly liveness: RunLiveness;
  readonly replicaId: string;
  private journal: EventJournal;
  private active = new Map<string, ActiveRun>();
  /** Chats (`org/chat`) with a run starting or running: a second start is refused at once. */
  private busyChats = new Set<string>();
  /** What a start needs to claim its chat (claim-chat.ts). */
  private claims: ChatClaims;
  private starts = new StartQueue();
  /** A question, the chat it may create and its run: commits shared by the starts of one turn. */
  private startWrites: CommitGroup;
  /** Set when the service drains before shutdown: no new run starts. */
  private draining = false;
  /** Runs not yet recorded (their `done`), for the shutdown to wait on. */
  private unfinished = new Set<Promise<RunRow>>();
  private shared: MessageBus;
  /** Stop and feedback requests from other replicas (run-control.ts). */
  private control: BusSubscription;
  /** The first event ids reserved and the runs lost before this process started failed. */
  private opening: Promise<void>;

  constructor(private deps: AgentDeps) {
    this.shared = deps.bus ?? memoryBus();
    this.bus = new LiveBus(deps.log, this.shared);
    this.journal = new EventJournal(deps.store, deps.log);
    this.journal.onAppend = (e) => this.bus.publish(e);
    this.journal.onCommit = (batch) => this.bus.committed(batch);
    this.control = this.shared.subscribe(CONTROL_CHANNEL, (request) => this.applyControl(request as ControlRequest));
    this.startWrites = new CommitGroup(deps.store, STARTS_PER_COMMIT);
    this.replicaId = deps.replicaId ?? newId();
    this.liveness = new RunLiveness({ ...deps, chats: deps.ports.chats, replicaId: this.replicaId, keepAliveMs: deps.config.keepAliveMs, runIds: () => [...this.active.values()].filter((a) => !a.ending).map((a) => a.row.id), lost: (runId) => this.cutLost(runId), deliver: (events) => this.deliverEnd(events) });
    // Runs left running by a process that died (this one before a restart, or another replica) and
    // no longer kept alive: only those, never the live runs of other replicas. On a store no other
    // process can open, every run found running was left by a dead one.
    this.opening = Promise.all([this.journal.ready(), this.liveness.sweep({ everyOtherReplica: deps.exclusiveStore === true })]).then(() => {});
    // Whoever awaits ready() sees a failure; nobody else must be told of it as unhandled.
    this.opening.catch(() => {});
    const stopTicking = this.liveness.start(deps.ticker);
    this.claims = { ...deps, startWrites: this.startWrites, busyChats: this.busyChats, liveness: this.liveness, replicaId: this.replicaId };
    deps.shutdown.addEventListener('abort', () => {
      stopTicking();
      for (const run of this.active.values()) run.hardStop.abort();
    });
  }

  /** Settles when requests from other replicas reach this one and the runs lost before the start are failed. */
  async ready(): Promise<void> {
    await Promise.all([this.control.ready, this.opening]);
  }

  /** Starts a run in the background; rejects another user's chat (404) and a second run on one chat (409). */
  async start(principal: Principal, input: StartRunInput): Promise<StartedRun> {
    if (this.draining) throw new ServiceShuttingDown();
    const ports = input.knowledge ? { ...this.deps.ports, knowledge: input.knowledge } : this.deps.ports;
    if (input.quickFix && input.environmentId === undefined) input = { ...input, environmentId: (await ports.knowledge.startQuickFix(principal)).id };
    const environmentName = await ports.knowledge.environmentName(principal, input.environmentId);
    const chatKey = `${principal.orgId}/${input.chatId}`;
    const run = newRunRow(principal, input, this.deps);
    const environment = input.environmentId && environmentName ? { id: input.environmentId, name: environmentName } : undefined;
    const claimed = await claimChat(this.claims, principal, { ...input, ports, environment }, run);
    // A chat's first question has no history before it: the run need not read the chat back.
    const history = input.history ?? (claimed.firstMessage ? [] : undefined);
    // Nobody follows the run before start() returns, so its first event may come before it is active.
    const started = await this.emit(run, { type: 'run_started', run_id: run.id, chat_id: run.chat_id, message_uuid: run.message_uuid, answer_uuid: run.answer_uuid, model: run.model, environment: environmentName ?? null });
    const stop = new AbortController();
    const active: ActiveRun = { row: run, principal, firstEventId: started.id, feedback: [], stop, hardStop: new AbortController(), stopAnnounced: false };
    this.active.set(run.id, active);
    // The run's work starts after the I/O already waiting (other requests) is served: under a burst of
    // questions every asker gets run_started first (start-queue.ts).
    const emit = (e: AgentEvent) => void (active.lost || this.emit(run, e).catch(() => {}));
    const execute = () => executeRun({ ...this.deps, ports, tools: this.deps.tools ?? DEFAULT_TOOLS, emit }, active, { ...input, environmentName, history });
    const startedAt = performance.now();
    const done = new Promise<boolean>((resolve) => this.starts.push(() => resolve(execute())))
      .catch((err: unknown) => this.deps.log.error({ err, run_id: run.id }, 'agent run failed outside the loop'))
      .then((recorded) => this.settle(active, chatKey, recorded, startedAt));
    this.unfinished.add(done);
    void done.then(() => this.unfinished.delete(done));
    return { row: { ...run, status: 'running', answer: null, finished_at: null, replica_id: this.replicaId, heartbeat_at: run.created_at }, done };
  }

  /** A run's work is over: the chat is free again; the run as stored. */
  private async settle(active: ActiveRun, chatKey: string, recorded: boolean | void, startedAt: number): Promise<RunRow> {
    const run = active.row;
    let row: RunRow;
    try {
      // Failed as lost by another replica meanwhile: its stored end ends this replica's streams too.
      if (recorded === false) this.deliverEnd((await this.journal.committedAfter(run, active.firstEventId)).filter(endsLostRun));
      row = (await getRun(this.deps.store, run.id))!;
    } catch {
      // The store closed under a run at shutdown: report what is known.
      row = { ...run, status: 'failed', answer: null, finished_at: null, replica_id: this.replicaId, heartbeat_at: run.created_at };
    }
    this.active.delete(run.id);
    this.busyChats.delete(chatKey);
    this.deps.observeRun?.(run.id, row.status, (performance.now() - startedAt) / 1000);
    return row;
  }

  /** Adds an event to the run's log; the journal delivers it (onAppend) as it gets its id. */
  private emit(run: Pick<RunRow, 'id' | 'chat_id'>, event: AgentEvent): Promise<StoredEvent> {
    return this.journal.append(run, event, this.deps.clock.now());
  }

  /** Stops a run of this replica that another failed as lost: its log already has its end. */
  private cutLost(runId: string): void {
    const active = this.active.get(runId);
    if (!active) return;
    active.lost = true;
    active.hardStop.abort();
  }

  /** The end of a lost replica's run, already stored: to its followers here and on other replicas. */
  private deliverEnd(events: StoredEvent[]): void {
    this.bus.committed(events);
    for (const e of events) this.bus.publish(e);
  }

  /** A run's events after an id (all of them by default), in order. */
  events(run: Pick<RunRow, 'id' | 'chat_id'>, afterId = 0): Promise<StoredEvent[]> {
    return this.journal.after(run, afterId);
  }

  /** Commits the pending events now (at shutdown, before the store closes); settles once they are stored. */
  flush(): Promise<void> {
    return this.journal.flush();
  }

  /** The caller's latest run of a chat, or ChatNotFound (also for other users' chats). */
  async ownRun(principal: Principal, chatId: string): Promise<RunRow> {
    const run = await latestRun(this.deps.store, principal.orgId, chatId);
    if (!run || run.user_id !== principal.userId) throw new ChatNotFound();
    return run;
  }

  /**
   * The caller's run that produced an answer (by the answer's or the question's uuid): ChatNotFound
   * for a chat that is not theirs, undefined when no run of theirs has this uuid.
   */
  async ownRunOfMessage(principal: Principal, chatId: string, messageUuid: string): Promise<RunRow | undefined> {
    const latest = await this.ownRun(principal, chatId);
    return userRunOfMessage(this.deps.store, latest, messageUuid);
  }

  /** The result of a run, folded from its event log. */
  async result(run: RunRow): Promise<RunResult> {
    return runResult(run, (await this.events(run)).map((e) => e.event));
  }

  isActive(runId: string): boolean {
    return this.active.has(runId);
  }

  /**
   * Replays the run's events after `afterId`, then follows it live until `completed` (follow-run.ts).
   * `onEnd` is called once when the run is over. Returns the unsubscribe function.
   */
  follow(run: RunRow, afterId: number, onEvent: (e: StoredEvent) => void, onEnd: () => void, onReplayed?: () => void): () => void {
    return followRun({ run, afterId, active: this.active.get(run.id), journal: this.journal, bus: this.bus, log: this.deps.log, onEvent, onEnd, onReplayed });
  }

  /** Queues feedback for the model, given after the current tool execution (by the replica that runs it). */
  async feedback(principal: Principal, chatId: string, text: string): Promise<{ status: 'queued' | 'not_running'; feedback_id: string | null }> {
    const run = await this.ownRun(principal, chatId);
    const request: ControlRequest = { op: 'feedback', run_id: run.id, user_id: principal.userId, feedback_id: newId(), text };
    const answer = this.active.has(run.id) ? this.applyControl(request) : run.status === 'running' ? await askOwner(this.shared, request) : undefined;
    return answer?.status === 'queued' ? { status: 'queued', feedback_id: request.feedback_id } : { status: 'not_running', feedback_id: null };
  }

  /** Asks the run to wrap up with a short summary (the replica that runs it does). */
  async stop(principal: Principal, chatId: string): Promise<{ status: 'stopping' | 'not_running'; run_id: string }> {
    const run = await this.ownRun(principal, chatId);
    const request: ControlRequest = { op: 'stop', run_id: run.id };
    const answer = this.active.has(run.id) ? this.applyControl(request) : run.status === 'running' ? await askOwner(this.shared, request) : undefined;
    return { status: answer?.status === 'stopping' ? 'stopping' : 'not_running', run_id: run.id };
  }

  /** Applies a stop or feedback request to a run of this process; nothing for another's. */
  private applyControl(request: ControlRequest): ControlAnswer | undefined {
    const active = this.active.get(request.run_id);
    if (!active) return undefined;
    if (request.op === 'feedback') {
      // The answer is synchronous (a bus request's answer): the row is stored meanwhile, and marked applied after that.
      const stored = insertFeedback(this.deps.store, { id: request.feedback_id, runId: active.row.id, userId: request.user_id, text: request.text, at: this.deps.clock.now() })
        .catch((err: unknown) => this.deps.log.warn({ err, run_id: active.row.id }, 'could not store feedback'));
      active.feedback.push({ id: request.feedback_id, text: request.text, stored });
      return { status: 'queued' };
    }
    if (!active.stopAnnounced) {
      active.stopAnnounced = true;
      void this.emit(active.row, { type: 'stop_requested' }).catch(() => {});
    }
    active.stop.abort();
    return { status: 'stopping' };
  }

  /**
   * Graceful shutdown: refuses new runs, lets the running ones finish within `graceMs`, then cuts the
   * rest (each ends with an `error` event and is stored as failed, never as completed) and waits until
   * they are recorded.
   */
  async finishRuns(graceMs: number): Promise<void> {
    this.draining = true;
    const all = () => Promise.all([...this.unfinished]);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
    await Promise.race([all(), deadline]);
    clearTimeout(timer);
    if (this.unfinished.size === 0) return;
    this.deps.log.warn({ runs: this.unfinished.size }, 'cutting agent runs still running at the end of the shutdown grace period');
    for (const run of this.active.values()) run.hardStop.abort();
    await all();
  }

  /** Runs in progress (for shutdown and tests). */
  activeCount(): number {
    return this.active.size;
  }
}
