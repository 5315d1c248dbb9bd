// Stop and feedback for a run another replica executes. Every replica answers the requests of one
// control channel; only the run's owner applies one and says so, the others answer nothing. The asker
// has checked the run is its caller's and still `running` in the shared store; it then waits for the
// owner's acknowledgement, at most CONTROL_TIMEOUT_MS (every replica answering nothing ends the wait
// sooner). No acknowledgement means no replica runs it any more: the caller is told `not_running`.
import type { MessageBus } from '../../ops/bus/index.ts';

export const CONTROL_CHANNEL = 'agent:control';
/** How long a request waits for the owner of a run to acknowledge it. */
export const CONTROL_TIMEOUT_MS = 2000;

export type ControlRequest = { op: 'stop'; run_id: string } | { op: 'feedback'; run_id: string; user_id: string; feedback_id: string; text: string };
export type ControlAnswer = { status: 'stopping' } | { status: 'queued' };

/** Asks the owner of a run (on a shared bus); undefined when no replica acknowledged. */
export async function askOwner(bus: MessageBus, request: ControlRequest): Promise<ControlAnswer | undefined> {
  if (!bus.shared) return undefined;
  return (await bus.request(CONTROL_CHANNEL, request, CONTROL_TIMEOUT_MS)) as ControlAnswer | undefined;
}
