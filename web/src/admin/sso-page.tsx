// /admin/sso: the organization's OIDC providers: add, edit, remove, and test (discovery and the
// client credentials, each check's result shown). The client secret is write-only.
import { useState } from 'react';
import { api, call } from '../api/client.ts';
import type { ResponseOf } from '../api/types.ts';
import { useDocumentTitle } from '../ui/document-title.ts';
import { ConfirmButton } from '../ui/confirm-button.tsx';
import { FormAlert, Note } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import { useLoad } from '../ui/use-load.ts';
import { ProviderForm, type Provider } from './provider-form.tsx';

type TestReport = ResponseOf<'/api/admin/sso/providers/{id}/test', 'post'>;

export function SsoPage() {
  useDocumentTitle('Single sign-on');
  const list = useLoad((signal) => call(api.GET('/api/admin/sso/providers', { signal })));
  const [editing, setEditing] = useState<string | undefined>();
  const [done, setDone] = useState('');
  const remove = useAction(async (p: Provider) => {
    await call(api.DELETE('/api/admin/sso/providers/{id}', { params: { path: { id: p.id } } }));
    list.update((d) => ({ providers: d.providers.filter((x) => x.id !== p.id) }));
    setDone(`${p.name} removed: its sign-in is refused from now on.`);
  });
  const saved = (p: Provider) => {
    setEditing(undefined);
    setDone(`${p.name} saved.`);
    void list.reload();
  };
  return (
    <>
      <h1>Single sign-on</h1>
      <FormAlert problem={list.problem ?? remove.problem} />
      {done && <Note>{done}</Note>}
      {list.loading && !list.data && <p role="status">Loading…</p>}
      {list.data &&
        (list.data.providers.length === 0 ? (
          <p>No provider: members sign in with a password or a sign-in link.</p>
        ) : (
          <ul className="cards" aria-label="Providers">
            {list.data.providers.map((p) => (
              <li key={p.id} className="card" aria-label={`Provider ${p.name}`}>
                <h3>{p.name}</h3>
                <p className="muted">
                  {p.issuer} · client {p.client_id} · {p.has_client_secret ? 'secret set' : 'public client'}
                </p>
                <p>
                  Callback URL to register: <code>{p.redirect_uri}</code>
                </p>
                <ProviderTest provider={p} />
                <div className="actions">
                  <button type="button" aria-label={`Edit ${p.name}`} aria-expanded={editing === p.id} onClick={() => setEditing(editing === p.id ? undefined : p.id)}>
                    Edit
                  </button>
                  <ConfirmButton label={`Remove ${p.name}`} question="Remove this provider? Its sign-in stops working." onConfirm={() => remove.run(p)}>
                    Remove
                  </ConfirmButton>
                </div>
                {editing === p.id && <ProviderForm provider={p} onSaved={saved} />}
              </li>
            ))}
          </ul>
        ))}
      <section aria-labelledby="new-provider-title">
        <h2 id="new-provider-title">Add a provider</h2>
        <ProviderForm onSaved={saved} />
      </section>
    </>
  );
}

function ProviderTest({ provider }: { provider: Provider }) {
  const [report, setReport] = useState<TestReport | undefined>();
  const test = useAction(async () => setReport(await call(api.POST('/api/admin/sso/providers/{id}/test', { params: { path: { id: provider.id } } }))));
  return (
    <div>
      <button type="button" aria-label={`Test ${provider.name}`} onClick={() => !test.pending && void test.run()}>
        Test
      </button>
      <FormAlert problem={test.problem} />
      {report && (
        <div role="status" aria-label={`Test of ${provider.name}`}>
          <p>{report.ok ? 'The provider works.' : 'The provider has a problem.'}</p>
          <ul>
            {report.checks.map((c) => (
              <li key={c.name}>
                {c.name === 'discovery' ? 'Discovery' : 'Client credentials'}: {c.ok === null ? 'no clear answer' : c.ok ? 'ok' : `failed (${c.problem ?? 'unknown'})`}. {c.detail}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
