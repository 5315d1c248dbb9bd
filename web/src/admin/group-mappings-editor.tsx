// A provider's IdP group mappings: a row per group the identity provider sends, giving a role
// and/or row-level-security groups (by name). The server's 422 for a row's part lands on that part.
import type { ApiProblem } from '../api/problem.ts';
import { Field, SelectField } from '../ui/field.tsx';
import { nestedFieldError } from './nested-field-error.ts';
import { ROLE_OPTIONS, type Role } from './roles.ts';

export interface GroupMapping {
  group: string;
  role?: Role | undefined;
  rls_groups?: string[] | undefined;
}
/** A row as typed: the role may be none, the RLS groups are one text separated by commas. */
export interface MappingRow {
  group: string;
  role: Role | '';
  rls: string;
}

export const toRows = (mappings: GroupMapping[]): MappingRow[] => mappings.map((m) => ({ group: m.group, role: m.role ?? '', rls: (m.rls_groups ?? []).join(', ') }));

/** Rows to the API's shape; every row is sent (an empty group too) so the server's indexes match the rows. */
export function fromRows(rows: MappingRow[]): GroupMapping[] {
  return rows.map((r) => {
    const rls = r.rls.split(',').map((g) => g.trim()).filter(Boolean);
    return { group: r.group.trim(), ...(r.role ? { role: r.role } : {}), ...(rls.length ? { rls_groups: rls } : {}) };
  });
}

const ROLE_CHOICES = [{ value: '', label: 'No change' }, ...ROLE_OPTIONS];

interface Props {
  rows: MappingRow[];
  onChange: (rows: MappingRow[]) => void;
  problem: ApiProblem | undefined;
}

export function GroupMappingsEditor({ rows, onChange, problem }: Props) {
  const set = (i: number, change: Partial<MappingRow>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...change } : r)));
  const error = (i: number, part: string) => nestedFieldError(problem, `group_mappings.${i}.${part}`);
  const listError = problem?.fields['group_mappings'];
  return (
    <fieldset className="field">
      <legend>Group mappings</legend>
      <p className="field-hint">Members of an identity-provider group get its role (the strongest wins) and join its row-security groups at each sign-in. Needs the groups claim.</p>
      {listError && <p className="field-error">{listError}</p>}
      {rows.length > 0 && (
        <ul className="cards" aria-label="Group mappings">
          {rows.map((r, i) => {
            const name = r.group.trim() || `row ${i + 1}`;
            return (
              <li key={i} className="card" aria-label={`Mapping ${name}`}>
                <Field label="IdP group" value={r.group} onChange={(group) => set(i, { group })} error={error(i, 'group')} maxLength={200} />
                <SelectField label={`Role for ${name}`} value={r.role} onChange={(role) => set(i, { role: role as Role | '' })} options={ROLE_CHOICES} error={error(i, 'role')} />
                <Field label={`Row-security groups for ${name}`} value={r.rls} onChange={(rls) => set(i, { rls })} error={error(i, 'rls_groups')} hint="Group names, separated by commas." />
                <button type="button" onClick={() => onChange(rows.filter((_, j) => j !== i))}>
                  Remove mapping {name}
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <button type="button" onClick={() => onChange([...rows, { group: '', role: '', rls: '' }])}>
        Add a group mapping
      </button>
    </fieldset>
  );
}
