// /settings/workspaces: the base organization and the workspaces the person belongs to; switch into
// one (a new session there), and choose where new sign-ins start.
import { useState, type FormEvent } from 'react';
import { api, call } from '../api/client.ts';
import type { ResponseOf } from '../api/types.ts';
import { useSession } from '../session/session.tsx';
import { useDocumentTitle } from '../ui/document-title.ts';
import { SelectField } from '../ui/field.tsx';
import { FormAlert, Note } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import { useLoad } from '../ui/use-load.ts';

type Workspaces = ResponseOf<'/api/auth/list_workspaces', 'get'>;

export function WorkspacesPage() {
  useDocumentTitle('Workspaces');
  const list = useLoad((signal) => call(api.GET('/api/auth/list_workspaces', { signal })));
  const { refresh } = useSession();
  const switchTo = useAction(async (orgId: string, base: boolean) => {
    if (base) await call(api.POST('/api/auth/switch_to_base_org', { body: {} }));
    else await call(api.POST('/api/auth/switch_to_workspace', { body: { workspace_org_id: orgId } }));
    await refresh();
    await list.reload();
  });
  const data = list.data;
  const all = data ? [{ ...data.base_org, base: true }, ...data.workspaces.map((w) => ({ ...w, base: false }))] : [];
  return (
    <>
      <h1>Workspaces</h1>
      <p className="muted">A workspace is an organization of its own inside yours, with its own data and knowledge. Switching signs you in there.</p>
      <FormAlert problem={list.problem ?? switchTo.problem} />
      {data && (
        <>
          <table className="data-table">
            <caption className="visually-hidden">Your organizations</caption>
            <thead>
              <tr>
                <th scope="col">Organization</th>
                <th scope="col">Your role</th>
                <th scope="col">
                  <span className="visually-hidden">Switch</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {all.map((w) => (
                <tr key={w.org_id} aria-current={w.org_id === data.current_org_id ? 'true' : undefined}>
                  <td>
                    {w.name}
                    {w.base && <span className="muted"> (base organization)</span>}
                  </td>
                  <td>{w.role ?? 'Workspaces only'}</td>
                  <td>
                    {w.org_id === data.current_org_id ? (
                      <strong>You are here</strong>
                    ) : (
                      <button type="button" disabled={switchTo.pending || (w.base && w.role === null)} onClick={() => void switchTo.run(w.org_id, w.base)} aria-label={`Switch to ${w.name}`}>
                        Switch
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {data.workspaces.length > 0 && <DefaultWorkspace data={data} onSaved={() => void list.reload()} />}
        </>
      )}
    </>
  );
}

function DefaultWorkspace({ data, onSaved }: { data: Workspaces; onSaved: () => void }) {
  const [choice, setChoice] = useState(data.default_workspace_id ?? '');
  const [saved, setSaved] = useState(false);
  const save = useAction(async () => {
    setSaved(false);
    await call(api.POST('/api/auth/set_my_default_workspace', { body: { workspace_org_id: choice || null, confirm: true } }));
    setSaved(true);
    onSaved();
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void save.run();
  };
  return (
    <form onSubmit={submit} noValidate aria-labelledby="default-workspace-title">
      <h2 id="default-workspace-title">Where you start</h2>
      <FormAlert problem={save.problem} />
      <SelectField
        label="New sign-ins start in"
        value={choice}
        onChange={setChoice}
        options={[{ value: '', label: `${data.base_org.name} (base organization)` }, ...data.workspaces.map((w) => ({ value: w.org_id, label: w.name }))]}
        error={save.fieldError('workspace_org_id')}
      />
      <div className="actions">
        <button type="submit" className="primary" disabled={save.pending}>
          Save
        </button>
        {saved && <Note>Saved: your next sign-in starts there.</Note>}
      </div>
    </form>
  );
}
