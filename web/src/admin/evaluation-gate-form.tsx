// The organization's evaluation gate on merges into production, on the organization settings page:
// each choice with what it does to a merge, saved on its own (it is the evaluations' setting).
import { useState, type FormEvent } from 'react';
import { api, call } from '../api/client.ts';
import type { ResponseOf } from '../api/types.ts';
import { FormAlert, Note } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import { useLoad } from '../ui/use-load.ts';

type Gate = ResponseOf<'/api/evaluations/settings', 'get'>['evaluation_gate'];

const CHOICES: { value: Gate; label: string; explains: string }[] = [
  { value: 'off', label: 'Off', explains: 'Merges into production do not look at evaluations.' },
  {
    value: 'report',
    label: 'Report',
    explains: 'Before a merge, the evaluations run on the environment and on production and the comparison is shown with the merge; a worse answer never stops it.',
  },
  {
    value: 'required',
    label: 'Required',
    explains: 'A merge is refused when a question answers worse on the environment than on production. An admin can still merge after reading why.',
  },
];

export function EvaluationGateForm() {
  const gate = useLoad((signal) => call(api.GET('/api/evaluations/settings', { signal })));
  return (
    <section aria-labelledby="gate-title">
      <h2 id="gate-title">Evaluation gate</h2>
      <p className="muted">What evaluations decide when an environment is merged into production.</p>
      <FormAlert problem={gate.problem} />
      {gate.data && <GateChoice current={gate.data.evaluation_gate} onSaved={(next) => gate.update(() => next)} />}
    </section>
  );
}

function GateChoice({ current, onSaved }: { current: Gate; onSaved: (g: { evaluation_gate: Gate }) => void }) {
  const [mode, setMode] = useState<Gate>(current);
  const [saved, setSaved] = useState(false);
  const save = useAction(async () => {
    setSaved(false);
    onSaved(await call(api.PUT('/api/evaluations/settings', { body: { evaluation_gate: mode } })));
    setSaved(true);
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!save.pending) void save.run();
  };
  return (
    <form onSubmit={submit} aria-label="Evaluation gate">
      <FormAlert problem={save.problem} />
      {saved && <Note>Evaluation gate saved.</Note>}
      <fieldset className="field choices">
        <legend>Evaluations on merges</legend>
        {CHOICES.map((c) => (
          <div key={c.value}>
            <label className="check">
              <input type="radio" name="evaluation_gate" value={c.value} checked={mode === c.value} onChange={() => setMode(c.value)} aria-describedby={`gate-${c.value}`} /> {c.label}
            </label>
            <p className="field-hint" id={`gate-${c.value}`}>
              {c.explains}
            </p>
          </div>
        ))}
      </fieldset>
      <div className="actions">
        <button type="submit">Save evaluation gate</button>
      </div>
    </form>
  );
}
