// A member's attributes (what row filters read as {{user.<name>}}) and groups, edited as text: one
// `name=value` a line, group ids separated by commas. The server's 422 lands on the field it names.
import { useState, type FormEvent } from 'react';
import { api, call } from '../api/client.ts';
import { Field, TextAreaField } from '../ui/field.tsx';
import { FormAlert, Note } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import { nestedFieldError } from './nested-field-error.ts';
import type { Member } from './roles.ts';

const asText = (a: Record<string, string>) => Object.entries(a).map(([k, v]) => `${k}=${v}`).join('\n');

/** Lines `name=value` to a record; a line without `=` keeps its text as a name so the server names it. */
function parseAttributes(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n').map((l) => l.trim()).filter(Boolean)) {
    const at = line.indexOf('=');
    out[at < 0 ? line : line.slice(0, at).trim()] = at < 0 ? '' : line.slice(at + 1).trim();
  }
  return out;
}

export function AttributesEditor({ member: m, onSaved }: { member: Member; onSaved: (m: Member) => void }) {
  const [attributes, setAttributes] = useState(asText(m.attributes));
  const [groups, setGroups] = useState(m.groups.map((g) => g.id).join(', '));
  const [saved, setSaved] = useState(false);
  const save = useAction(async () => {
    setSaved(false);
    const body = { attributes: parseAttributes(attributes), groups: groups.split(',').map((g) => g.trim()).filter(Boolean) };
    onSaved(await call(api.PUT('/api/admin/members/{user_id}/attributes', { params: { path: { user_id: m.user_id } }, body })));
    setSaved(true);
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!save.pending) void save.run();
  };
  return (
    <details>
      <summary>Attributes and groups</summary>
      <form onSubmit={submit} noValidate aria-label={`Attributes and groups of ${m.email}`}>
        <FormAlert problem={save.problem} />
        {saved && <Note>Attributes and groups saved.</Note>}
        <TextAreaField label="Attributes" value={attributes} onChange={setAttributes} error={nestedFieldError(save.problem, 'attributes')} hint="One name=value a line, read by row filters as {{user.name}}." rows={3} />
        <Field
          label="Groups"
          value={groups}
          onChange={setGroups}
          error={nestedFieldError(save.problem, 'groups')}
          hint={m.groups.length ? `Now: ${m.groups.map((g) => g.name).join(', ')}. Group ids, separated by commas.` : 'Group ids, separated by commas.'}
        />
        <div className="actions">
          <button type="submit">Save attributes and groups</button>
        </div>
      </form>
    </details>
  );
}
