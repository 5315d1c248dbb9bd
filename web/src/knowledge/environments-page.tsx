// /knowledge/environments: the organization's environments, switching into one (every request then
// carries its header and the coloured bar shows it), and creating one forked from production or
// from another environment.
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { api, call } from '../api/client.ts';
import { setActiveEnvironment, useActiveEnvironment } from '../api/environment.ts';
import type { ResponseOf } from '../api/types.ts';
import { useDraft } from '../lib/drafts.ts';
import { useDocumentTitle } from '../ui/document-title.ts';
import { Field, SelectField } from '../ui/field.tsx';
import { FormAlert } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import { useLoad } from '../ui/use-load.ts';

export type Environment = ResponseOf<'/api/environments/{id}', 'get'>;

export const environmentPath = (id: string) => `/knowledge/environments/${encodeURIComponent(id)}`;

export function EnvironmentsPage() {
  useDocumentTitle('Environments');
  const envs = useLoad((signal) => call(api.GET('/api/environments', { signal })));
  const active = useActiveEnvironment();
  return (
    <>
      <section aria-labelledby="envs-title">
        <h1 id="envs-title">Environments</h1>
        <p className="muted">Change knowledge in an environment, check it, then merge it into production.</p>
        <FormAlert problem={envs.problem} />
        {envs.loading && !envs.data && <p role="status">Loading…</p>}
        {envs.data &&
          (envs.data.length === 0 ? (
            <p>No environment yet: everything is changed in production.</p>
          ) : (
            <ul className="cards" aria-label="Environments">
              {envs.data.map((env) => (
                <li key={env.id} className="card row">
                  <span className="swatch" style={{ background: env.color }} aria-hidden="true" />
                  <Link to={environmentPath(env.id)}>{env.name}</Link>
                  {env.throwaway && <span className="tag">Throwaway</span>}
                  <span className="spacer" />
                  {active?.id === env.id ? (
                    <button type="button" onClick={() => setActiveEnvironment(undefined)}>
                      Back to production
                    </button>
                  ) : (
                    <button type="button" onClick={() => setActiveEnvironment(env)}>
                      Work in {env.name}
                    </button>
                  )}
                </li>
              ))}
            </ul>
          ))}
      </section>
      <NewEnvironment sources={envs.data ?? []} />
    </>
  );
}

function NewEnvironment({ sources }: { sources: Environment[] }) {
  const [name, setName] = useDraft('environment.name');
  const [color, setColor] = useState('#1e88e5');
  const [source, setSource] = useState('');
  const [switchTo, setSwitchTo] = useState(true);
  const navigate = useNavigate();
  const create = useAction(async () => {
    const env = await call(api.POST('/api/environments', { body: { name, color, source_env_id: source || null } }));
    setName('');
    if (switchTo) setActiveEnvironment(env);
    void navigate(environmentPath(env.id));
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!create.pending) void create.run();
  };
  return (
    <section aria-labelledby="new-env-title">
      <h2 id="new-env-title">New environment</h2>
      <form onSubmit={submit} noValidate aria-labelledby="new-env-title">
        <FormAlert problem={create.problem} />
        <Field label="Name" value={name} onChange={setName} error={create.fieldError('name')} maxLength={100} />
        <Field label="Colour" type="color" value={color} onChange={setColor} error={create.fieldError('color')} hint="The bar shown while you work in it." />
        <SelectField
          label="Start from"
          value={source}
          onChange={setSource}
          error={create.fieldError('source_env_id')}
          options={[{ value: '', label: 'Production' }, ...sources.map((s) => ({ value: s.id, label: `Environment ${s.name}` }))]}
        />
        <div className="field">
          <label className="check">
            <input type="checkbox" checked={switchTo} onChange={(e) => setSwitchTo(e.target.checked)} /> Work in it once created
          </label>
        </div>
        <div className="actions">
          <button type="submit" className="primary">
            Create environment
          </button>
        </div>
      </form>
    </section>
  );
}
