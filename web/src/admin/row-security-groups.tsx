// Groups that row filters name (`groups:` of a filter, `{{user.groups}}`): add, rename, choose the
// members, delete. A group's id is what filters name; it is made from the name when left empty.
import { useState, type FormEvent } from 'react';
import { api, call } from '../api/client.ts';
import type { ResponseOf } from '../api/types.ts';
import { ConfirmButton } from '../ui/confirm-button.tsx';
import { Field } from '../ui/field.tsx';
import { FormAlert, Note } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import { useLoad } from '../ui/use-load.ts';
import type { Members } from './member-picker.tsx';

type Group = ResponseOf<'/api/row-security/groups', 'get'>['groups'][number];

const slug = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '').slice(0, 64);

export function GroupsSection({ members }: { members: Members }) {
  const groups = useLoad((signal) => call(api.GET('/api/row-security/groups', { signal })));
  const [done, setDone] = useState('');
  // Bumped by each group added, so the form for the next one starts empty.
  const [added, setAdded] = useState(0);
  const saved = (g: Group) => {
    setDone(`Group ${g.name} saved with ${g.members.length} member${g.members.length === 1 ? '' : 's'}.`);
    void groups.reload();
  };
  const remove = useAction(async (g: Group) => {
    await call(api.DELETE('/api/row-security/groups/{group_id}', { params: { path: { group_id: g.id } } }));
    groups.update((d) => ({ groups: d.groups.filter((x) => x.id !== g.id) }));
    setDone(`Group ${g.name} deleted: filters naming it no longer apply to anyone.`);
  });
  return (
    <section aria-labelledby="groups-title">
      <h2 id="groups-title">Groups</h2>
      <FormAlert problem={groups.problem ?? remove.problem} />
      {done && <Note>{done}</Note>}
      {groups.data && groups.data.groups.length === 0 && <p>No group yet.</p>}
      {groups.data && groups.data.groups.length > 0 && (
        <ul className="cards" aria-label="Groups">
          {groups.data.groups.map((g) => (
            <li key={g.id} className="card" aria-label={`Group ${g.name}`}>
              <h3>
                {g.name} <span className="muted">id {g.id}</span>
              </h3>
              <p>{g.members.length ? `Members: ${g.members.map(members.label).join(', ')}` : 'No member.'}</p>
              <details>
                <summary>Change {g.name}</summary>
                <GroupForm group={g} members={members} onSaved={saved} />
              </details>
              <ConfirmButton label={`Delete group ${g.name}`} question={`Delete the group ${g.name}? Filters naming it stop applying to its members.`} onConfirm={() => remove.run(g)}>
                Delete
              </ConfirmButton>
            </li>
          ))}
        </ul>
      )}
      <h3>Add a group</h3>
      <GroupForm
        key={added}
        members={members}
        onSaved={(g) => {
          setAdded((n) => n + 1);
          saved(g);
        }}
      />
    </section>
  );
}

function GroupForm({ group, members, onSaved }: { group?: Group; members: Members; onSaved: (g: Group) => void }) {
  const [name, setName] = useState(group?.name ?? '');
  const [id, setId] = useState(group?.id ?? '');
  const [chosen, setChosen] = useState<string[]>(group?.members ?? []);
  const save = useAction(async () => {
    const groupId = group?.id ?? (id.trim() || slug(name));
    onSaved(await call(api.PUT('/api/row-security/groups/{group_id}', { params: { path: { group_id: groupId } }, body: { name, members: chosen } })));
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!save.pending) void save.run();
  };
  const toggle = (userId: string, on: boolean) => setChosen((c) => (on ? [...c, userId] : c.filter((x) => x !== userId)));
  const label = group ? `Group ${group.name}` : 'New group';
  return (
    <form onSubmit={submit} noValidate aria-label={label}>
      <FormAlert problem={save.problem} />
      <Field label="Group name" value={name} onChange={setName} error={save.fieldError('name')} maxLength={100} />
      {!group && (
        <Field label="Group id" value={id} onChange={setId} error={save.fieldError('group_id')} placeholder={slug(name)} hint="What filters name; letters, digits, _ and -. Empty: made from the name." />
      )}
      <fieldset>
        <legend>Members of {group?.name ?? 'the new group'}</legend>
        {members.list.map((m) => (
          <label key={m.user_id} className="check">
            <input type="checkbox" checked={chosen.includes(m.user_id)} onChange={(e) => toggle(m.user_id, e.target.checked)} /> {members.label(m.user_id)}
          </label>
        ))}
      </fieldset>
      <div className="actions">
        <button type="submit" className="primary">
          {group ? 'Save group' : 'Add group'}
        </button>
      </div>
    </form>
  );
}
