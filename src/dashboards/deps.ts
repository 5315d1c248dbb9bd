// What the dashboards domain needs, built once by src/compose.
import type { Clock } from '../clock.ts';
import type { Executor } from '../store/index.ts';
import type { DashboardPorts } from './ports.ts';

export interface DashboardDeps {
  store: Executor;
  clock: Clock;
  ports: DashboardPorts;
}
