// Knowledge's TargetMetadataReader, answered by the data plane: environment sync_target reads the
// dev targets' metadata; coverage columns come from production's documentation, which an
// environment starts from.
import { readTargetTables, withCoverage } from '../data/index.ts';
import type { DataDeps } from '../data/deps.ts';
import type { TargetMetadataReader } from '../knowledge/index.ts';

/** The reader over the data plane; `data` is read at call time (the data plane is built after knowledge). */
export function targetMetadataReader(data: () => DataDeps): TargetMetadataReader {
  return {
    readTarget: async (principal, connectionId, target) =>
      withCoverage(data(), principal, undefined, connectionId, target, await readTargetTables(data(), principal, connectionId, target)),
  };
}
