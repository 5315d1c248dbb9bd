// The SQLite handle for the wiring of code not yet moved onto the executor. On PostgreSQL there is no
// such handle: a stand-in takes its place that fails, naming what was asked of it, the first time that
// code touches it, so a gateway on PostgreSQL serves everything already converted and refuses loudly
// (a 500 with the cause in the log) what is not, instead of writing to a database nobody reads.
import type { Db } from '../store/index.ts';
import type { ServiceStore } from '../store/open-service-store.ts';

export class UnconvertedOnPostgres extends Error {
  readonly code = 'UNCONVERTED_ON_POSTGRES';
  constructor(what: string) {
    super(`This part of the service still uses the SQLite handle directly (${what}) and cannot run on PostgreSQL yet`);
    this.name = 'UnconvertedOnPostgres';
  }
}

const standIn = new Proxy({} as Db, {
  get: (_target, key) => {
    // Symbols (inspection) and `then` (a promise resolving to it) ask whether it is special: it is not.
    if (typeof key === 'symbol' || key === 'then') return undefined;
    throw new UnconvertedOnPostgres(`Db.${key}`);
  },
});

/** The SQLite handle of `store`, or on PostgreSQL the stand-in above. */
export function unconvertedDb(store: ServiceStore): Db {
  return store.sqlite ?? standIn;
}
