// What a person chose for each conflicting file, and the resolution the server takes from it: keep
// the environment's version, production's, a merged item built field by field (fields only one side
// changed come merged; for each field both changed, one side or an edited value), or an edited text.
import { parse, stringify } from 'yaml';
import type { ResponseOf } from '../api/types.ts';

export type ConflictFile = NonNullable<ResponseOf<'/api/environments/{id}/conflicts', 'get'>['files']>[number];
export type FieldConflict = NonNullable<ConflictFile['fields']>[number];

export type FieldPick = { pick: 'environment' | 'production' | 'edit'; text: string };
export interface FileChoice {
  keep?: 'environment' | 'production' | 'fields' | 'text';
  fields: Record<string, FieldPick>;
  text: string;
}

export interface Resolution {
  path: string;
  keep: 'environment' | 'production' | 'merged';
  content?: string | null;
  value?: Record<string, unknown>;
}

/** How a field's value reads on the page: texts as they are, anything else as YAML. */
export function shown(value: unknown): string {
  if (value === null || value === undefined) return '(absent)';
  return typeof value === 'string' ? value : stringify(value).trimEnd();
}

/** A choice with nothing picked yet; an edited field or file starts from the environment's version. */
export function initialChoice(file: ConflictFile): FileChoice {
  const fields: Record<string, FieldPick> = {};
  for (const f of file.fields ?? []) if (f.conflict) fields[f.name] = { pick: 'environment', text: f.environment === null ? '' : shown(f.environment) };
  return { fields, text: file.environment ?? file.production ?? '' };
}

/** The resolution of one file, or what is missing (in words) for it. */
export function resolutionOf(file: ConflictFile, choice: FileChoice): Resolution | string {
  if (!choice.keep) return `Choose how to resolve ${file.path}.`;
  if (choice.keep === 'environment' || choice.keep === 'production') return { path: file.path, keep: choice.keep };
  if (choice.keep === 'text') return { path: file.path, keep: 'merged', content: choice.text };
  const value = { ...(asMap(file.environment === null ? undefined : parse(file.environment)) ?? {}) };
  for (const f of file.fields ?? []) {
    let next: unknown;
    if (!f.conflict) next = f.merged;
    else {
      const pick = choice.fields[f.name]!;
      if (pick.pick !== 'edit') next = pick.pick === 'environment' ? f.environment : f.production;
      else {
        const edited = editedValue(f, pick.text);
        if (typeof edited === 'object' && edited !== null && 'error' in edited) return `${file.path}, field ${f.name}: ${edited.error}`;
        next = edited;
      }
    }
    if (next === null || next === undefined) delete value[f.name];
    else value[f.name] = next;
  }
  return { path: file.path, keep: 'merged', value };
}

/** A field's edited text as its value: text fields stay text, others read as YAML. */
function editedValue(f: FieldConflict, text: string): unknown {
  const sample = f.environment ?? f.production;
  if (typeof sample === 'string') return text;
  try {
    return parse(text) as unknown;
  } catch (err) {
    return { error: `this is not valid YAML (${err instanceof Error ? err.message.split('\n')[0] : 'unreadable'})` };
  }
}

function asMap(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}
