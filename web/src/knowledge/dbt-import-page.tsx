// /knowledge/import/dbt: a dbt project's artifacts (manifest.json, optionally catalog.json) become
// knowledge in an environment: the person picks the files, the connection their tables live on and
// the environment (or a new one), sees the upload and the import progress, then the summary and a way
// to the environment's diff. Admins and modelers only (the layout says so; the server refuses too).
import { useRef, useState, type FormEvent } from 'react';
import { api, call } from '../api/client.ts';
import { uploadWithProgress, type UploadProgress } from '../api/upload-with-progress.ts';
import { useMe } from '../session/session.tsx';
import { useDocumentTitle } from '../ui/document-title.ts';
import { SelectField } from '../ui/field.tsx';
import { FormAlert } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import { useLoad } from '../ui/use-load.ts';
import { importFieldMessages } from './dbt-import-messages.ts';
import { DbtImportSummary, type ImportSummary } from './dbt-import-summary.tsx';
import { FileField } from './file-field.tsx';

export function DbtImportPage() {
  useDocumentTitle('Import from dbt');
  const [summary, setSummary] = useState<ImportSummary | undefined>();
  return (
    <section aria-labelledby="dbt-import-title">
      <h1 id="dbt-import-title">Import from dbt</h1>
      <p className="muted">
        Your dbt project&apos;s models, sources, tests, metrics and saved queries become table documentation, relationships, governed metrics and reports in an
        environment. Review the changes there, run the evaluations, then merge: production does not change before.
      </p>
      {summary ? <DbtImportSummary summary={summary} onAgain={() => setSummary(undefined)} /> : <ImportForm onDone={setSummary} />}
    </section>
  );
}

/** The connections to pick from: admins read the connections API; modelers, who may not, the catalog's list. */
function useConnections() {
  const me = useMe();
  return useLoad(async (signal) => {
    if (me.role === 'admin') return (await call(api.GET('/api/connections', { signal }))).connections;
    return (await call(api.GET('/api/cli/catalog', { signal }))).connections;
  }, me.role);
}

type Phase = { step: 'idle' } | { step: 'uploading'; progress: UploadProgress } | { step: 'importing' };

interface Chosen {
  manifest: File;
  catalog: File | undefined;
  connection: string;
  environment: string;
}

/** Sends the chosen files as the route's multipart form, following the upload and then the import. */
function useImportUpload(onDone: (summary: ImportSummary) => void) {
  const [phase, setPhase] = useState<Phase>({ step: 'idle' });
  const submit = useAction(async ({ manifest, catalog, connection, environment }: Chosen) => {
    const form = new FormData();
    form.append('connection_id', connection);
    if (environment) form.append('environment_id', environment);
    form.append('manifest', manifest, manifest.name);
    if (catalog) form.append('catalog', catalog, catalog.name);
    const onProgress = (progress: UploadProgress) => setPhase(progress.sent >= progress.total ? { step: 'importing' } : { step: 'uploading', progress });
    setPhase({ step: 'uploading', progress: { sent: 0, total: manifest.size + (catalog?.size ?? 0) } });
    try {
      onDone(await uploadWithProgress<ImportSummary>('/api/import/dbt', form, onProgress));
    } finally {
      setPhase({ step: 'idle' });
    }
  });
  return { submit, phase };
}

function ImportForm({ onDone }: { onDone: (summary: ImportSummary) => void }) {
  const connections = useConnections();
  const envs = useLoad((signal) => call(api.GET('/api/environments', { signal })));
  const [manifest, setManifest] = useState<File | undefined>();
  const [catalog, setCatalog] = useState<File | undefined>();
  const [connection, setConnection] = useState('');
  const [environment, setEnvironment] = useState('');
  const [missing, setMissing] = useState(false);
  const chosenConnection = connection || connections.data?.[0]?.id || '';
  const { submit, phase } = useImportUpload(onDone);
  const running = useRef(false);
  const start = async (e: FormEvent) => {
    e.preventDefault();
    setMissing(!manifest);
    // A second press while the first runs is ignored (the button keeps the keyboard's focus).
    if (!manifest || !chosenConnection || running.current) return;
    running.current = true;
    await submit.run({ manifest, catalog, connection: chosenConnection, environment });
    running.current = false;
  };
  const messages = importFieldMessages(submit.problem);
  const manifestError = messages.manifest ?? (missing ? "Choose the manifest.json file from your dbt project's target folder." : undefined);
  return (
    <form onSubmit={(e) => void start(e)} noValidate aria-labelledby="dbt-import-title">
      <FileField label="Manifest (manifest.json)" hint="In your dbt project's target folder, written by dbt compile, run or build." onChange={setManifest} error={manifestError} required />
      <FileField label="Catalog (catalog.json, optional)" hint="Written by dbt docs generate: adds the columns' types." onChange={setCatalog} error={messages.catalog} />
      <ConnectionField connections={connections} value={chosenConnection} onChange={setConnection} error={messages.connection_id} />
      <SelectField
        label="Environment"
        value={environment}
        onChange={setEnvironment}
        error={messages.environment_id}
        options={[{ value: '', label: 'A new environment (named after the project)' }, ...(envs.data ?? []).map((e) => ({ value: e.id, label: `Environment ${e.name}` }))]}
      />
      <FormAlert problem={envs.problem} />
      <ImportProblem problem={submit.problem} messages={messages} />
      <ImportProgress phase={phase} />
      <div className="actions">
        <button type="submit" className="primary">
          Import
        </button>
      </div>
    </form>
  );
}

type Connections = ReturnType<typeof useConnections>;

function ConnectionField({ connections, value, onChange, error }: { connections: Connections; value: string; onChange: (v: string) => void; error: string | undefined }) {
  if (connections.problem) return <FormAlert problem={connections.problem} />;
  if (!connections.data) return <p role="status">Loading the connections…</p>;
  if (connections.data.length === 0) return <p role="alert">There is no connection yet: an admin adds the warehouse your dbt project builds first.</p>;
  const options = connections.data.map((c) => ({ value: c.id, label: `${c.name} (${c.type})` }));
  return <SelectField label="Connection" value={value} onChange={onChange} error={error} options={options} />;
}

/** Why nothing was imported, where the person looks after pressing Import; the fields repeat their own part. */
function ImportProblem({ problem, messages }: { problem: ReturnType<typeof useAction>['problem']; messages: ReturnType<typeof importFieldMessages> }) {
  if (!problem) return null;
  const worded = Object.values(messages);
  if (problem.status !== 422 || worded.length === 0) return <FormAlert problem={problem} />;
  return (
    <div className="alert error" role="alert">
      <p>Nothing was imported.</p>
      <ul>
        {worded.map((m) => (
          <li key={m}>{m}</li>
        ))}
      </ul>
    </div>
  );
}

const MB = (n: number) => `${(n / 1_048_576).toFixed(1)} MB`;

function ImportProgress({ phase }: { phase: Phase }) {
  if (phase.step === 'idle') return null;
  const uploading = phase.step === 'uploading';
  const label = uploading ? `Uploading: ${MB(phase.progress.sent)} of ${MB(phase.progress.total)}` : 'Importing: reading the project and writing the environment…';
  return (
    <div role="status" className="import-progress">
      <label htmlFor="dbt-import-progress">{label}</label>
      {uploading ? (
        <progress id="dbt-import-progress" className="progress" max={Math.max(phase.progress.total, 1)} value={phase.progress.sent} />
      ) : (
        <progress id="dbt-import-progress" className="progress" />
      )}
    </div>
  );
}
