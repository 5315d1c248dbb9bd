// What the import domain needs, built once by src/compose.
import type { Clock } from '../../clock.ts';
import type { Executor } from '../../store/index.ts';
import type { KnowledgePort, WarehousePort } from './ports.ts';
import type { RenderMemo } from './render-memo.ts';

export interface ImportDeps {
  store: Executor;
  clock: Clock;
  knowledge: KnowledgePort;
  warehouse: WarehousePort;
  /** What earlier imports in this process rendered and read: one for the process. */
  memo: RenderMemo;
}
