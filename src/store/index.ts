export { openStore } from './open-store.ts';
export type { Db, Store } from './open-store.ts';
export { migrate, listMigrations } from './migrate.ts';
export type { Migration } from './migrate.ts';
export { statement } from './statement.ts';
export { CommitGroup } from './commit-group.ts';
export { observeTransactions, transact } from './transact.ts';
