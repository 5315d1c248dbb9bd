// What a person needs to resolve a conflicting file: its three versions (where the environment
// forked or last took production's changes, the environment's, production's) and, for a knowledge
// item, its fields side by side: those the two sides changed alike or on one side only come merged,
// those both changed differently are the conflicts to decide.
import { isDeepStrictEqual } from 'node:util';
import { MAIN_BRANCH, mergeBase, readFile, type GitRepo } from '../git/index.ts';
import { classifyPath } from './kinds.ts';
import { mergeFields } from './merge-fields.ts';
import { parseYaml } from './yaml-doc.ts';

export interface FieldConflict {
  name: string;
  base: unknown;
  environment: unknown;
  production: unknown;
  /** Both sides changed the field differently: a person decides. */
  conflict: boolean;
  /** The field merged, when it is no conflict (absent: the field is removed). */
  merged?: unknown;
}

export interface ConflictDetail {
  path: string;
  /** Texts of the file; null where it does not exist. */
  base: string | null;
  environment: string | null;
  production: string | null;
  /** For knowledge items whose three versions read as YAML: the fields that differ between the sides. */
  fields?: FieldConflict[];
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The three versions of each conflicting file of the environment's branch. */
export async function conflictDetails(repo: GitRepo, branch: string, paths: string[]): Promise<ConflictDetail[]> {
  const base = await mergeBase({ repo, a: MAIN_BRANCH, b: branch });
  const read = async (ref: string | undefined, path: string) => (ref ? ((await readFile({ repo, ref, path })) ?? null) : null);
  return Promise.all(
    paths.map(async (path) => {
      const texts = { base: await read(base, path), environment: await read(branch, path), production: await read(MAIN_BRANCH, path) };
      const fields = classifyPath(path) ? fieldsOf(texts) : undefined;
      return { path, ...texts, ...(fields ? { fields } : {}) };
    }),
  );
}

function fieldsOf(texts: { base: string | null; environment: string | null; production: string | null }): FieldConflict[] | undefined {
  const [base, environment, production] = [texts.base, texts.environment, texts.production].map((t) => (t === null ? {} : parseYaml(t).value));
  if (!isMap(base) || !isMap(environment) || !isMap(production)) return undefined;
  const names = [...new Set([...Object.keys(environment), ...Object.keys(production)])].filter((n) => !isDeepStrictEqual(environment[n], production[n]));
  return names.map((name) => {
    const merged = mergeFields({ v: base[name] }, { v: production[name] }, { v: environment[name] });
    const field = { name, base: base[name] ?? null, environment: environment[name] ?? null, production: production[name] ?? null };
    return merged.ok ? { ...field, conflict: false, ...('v' in merged.value ? { merged: merged.value['v'] } : {}) } : { ...field, conflict: true };
  });
}
