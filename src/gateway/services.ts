import type { AgentRuns } from '../agent/index.ts';
import type { AgentPorts } from '../agent/ports.ts';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Logger } from '../log.ts';
import type { SecretBox } from '../security/index.ts';
import type { Store } from '../store/index.ts';

/** Everything the composition root wires together and hands to the route tables. */
export interface Services {
  config: Config;
  clock: Clock;
  store: Store;
  log: Logger;
  secretBox: SecretBox;
  /** Aborted when the service shuts down, so long-lived streams can end cleanly. */
  shutdown: AbortSignal;
  /** The agent's runs (start, follow, feedback, stop) and the ports it reads data through. */
  agent: AgentRuns;
  agentPorts: AgentPorts;
}
