// The import's refusals in the words of the person who chose the files: the server's 422 names the
// file (`manifest`, `catalog`) and what is wrong with it; this says what to do about it.
import type { ApiProblem } from '../api/problem.ts';

export type ArtifactField = 'manifest' | 'catalog';

const FILE: Record<ArtifactField, string> = { manifest: 'manifest.json', catalog: 'catalog.json' };

/** One file's problem, reworded; anything not recognised keeps the server's own words. */
export function artifactMessage(field: ArtifactField, msg: string): string {
  const file = FILE[field];
  if (/required|missing/i.test(msg)) return `Choose the ${file} file from your dbt project's target folder.`;
  if (/not JSON/i.test(msg)) return `This file is not JSON, so it cannot be dbt's ${file}. Choose the ${file} that dbt wrote into its target folder.`;
  const version = /schema version v?(\d+)/i.exec(msg);
  if (version) return `This manifest was written by a dbt version Sextant cannot read (manifest schema v${version[1]}). Sextant reads schema v10 to v12, written by dbt 1.6 and later: run dbt again with a newer dbt.`;
  const other = /another project \(([^)]*)\)/i.exec(msg);
  if (other) return `This catalog belongs to another dbt project (${other[1]}): none of its tables is in this manifest. Choose the catalog.json written next to this manifest, or leave the catalog out.`;
  if (/not a dbt manifest/i.test(msg)) return `This JSON file is not a dbt manifest. Choose the manifest.json from your dbt project's target folder (written by dbt compile, run or build).`;
  if (/not a dbt catalog/i.test(msg)) return `This JSON file is not a dbt catalog. Choose the catalog.json written by dbt docs generate, or leave the catalog out.`;
  return `${file}: ${msg}`;
}

/** The reworded messages of a failed import, by field (files, connection, environment). */
export function importFieldMessages(problem: ApiProblem | undefined): Partial<Record<ArtifactField | 'connection_id' | 'environment_id', string>> {
  if (!problem) return {};
  const out: ReturnType<typeof importFieldMessages> = {};
  for (const field of ['manifest', 'catalog'] as const) {
    const msg = problem.fields[field];
    if (msg) out[field] = artifactMessage(field, msg);
  }
  if (problem.fields['connection_id']) out.connection_id = 'Pick the connection whose tables the dbt project builds.';
  if (problem.fields['environment_id']) out.environment_id = 'Pick an environment from the list, or a new one.';
  return out;
}
