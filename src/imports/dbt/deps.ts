// What the import domain needs, built once by src/compose.
import type { Clock } from '../../clock.ts';
import type { Executor } from '../../store/index.ts';
import type { KnowledgePort, WarehousePort } from './ports.ts';

export interface ImportDeps {
  store: Executor;
  clock: Clock;
  knowledge: KnowledgePort;
  warehouse: WarehousePort;
}
