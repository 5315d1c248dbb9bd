// Testing a connection: the server connects, pings and counts tables, and the answer is said in
// words (connections-words.ts). A host the outbound rules refuse comes back as a refusal, said too.
import { useState } from 'react';
import { api, call } from '../api/client.ts';
import { FormAlert } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import { hostRefusal, testVerdict, type Connection, type TestResult } from './connections-words.ts';

export function ConnectionTest({ connection: c }: { connection: Connection }) {
  const [result, setResult] = useState<TestResult | undefined>();
  const test = useAction(async () => {
    setResult(undefined);
    setResult(await call(api.POST('/api/connections/{connection_id}/test', { params: { path: { connection_id: c.id } } })));
  });
  const refusal = hostRefusal(test.problem);
  return (
    <div>
      <button type="button" aria-label={`Test ${c.name}`} onClick={() => !test.pending && void test.run()}>
        Test
      </button>
      {test.pending && <p role="status">Connecting to {c.name}…</p>}
      {refusal ? (
        <div className="alert error" role="alert" aria-label={`Test of ${c.name}`}>
          {refusal}
        </div>
      ) : (
        <FormAlert problem={test.problem} />
      )}
      {result && (
        <div className={`alert ${result.ok ? 'ok' : 'error'}`} role={result.ok ? 'status' : 'alert'} aria-label={`Test of ${c.name}`}>
          {testVerdict(result)}
        </div>
      )}
    </div>
  );
}
