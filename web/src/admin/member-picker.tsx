// Members by name for the usage and credit-limit pages: the organization's members read from the
// members API (pages of 200, so a large organization costs a few requests, not one per row), a
// label for a user id, and a select to pick one instead of typing an id.
import { api, call } from '../api/client.ts';
import { SelectField } from '../ui/field.tsx';
import { useLoad } from '../ui/use-load.ts';
import type { Member } from './roles.ts';

/** Beyond this many members the rest show as ids; a picker that long is no longer a picker. */
const MAX_PAGES = 10;

async function allMembers(signal: AbortSignal): Promise<Member[]> {
  const out: Member[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const got = await call(api.GET('/api/admin/members', { params: { query: { cursor, limit: 200 } }, signal }));
    out.push(...got.members);
    if (!got.next_cursor) break;
    cursor = got.next_cursor;
  }
  return out.sort((a, b) => memberLabel(a).localeCompare(memberLabel(b)));
}

const memberLabel = (m: Member) => (m.name && m.name !== m.email ? `${m.name} (${m.email})` : m.email);

export interface Members {
  list: Member[];
  /** The member's name and email, or the id itself for someone no longer (or not yet) listed. */
  label: (userId: string) => string;
}

export function useMembers(): Members {
  const loaded = useLoad(allMembers);
  const list = loaded.data ?? [];
  const byId = new Map(list.map((m) => [m.user_id, memberLabel(m)]));
  return { list, label: (id) => byId.get(id) ?? id };
}

interface PickerProps {
  label: string;
  members: Members;
  value: string;
  onChange: (userId: string) => void;
  /** What the empty choice means: everyone, the organization… */
  none: string;
  error?: string | undefined;
}

export function MemberPicker({ label, members, value, onChange, none, error }: PickerProps) {
  const options = [{ value: '', label: none }, ...members.list.map((m) => ({ value: m.user_id, label: memberLabel(m) }))];
  // A chosen id the list lacks (still loading) stays selectable rather than silently reset.
  if (value && !members.list.some((m) => m.user_id === value)) options.push({ value, label: members.label(value) });
  return <SelectField label={label} value={value} onChange={onChange} options={options} error={error} />;
}
