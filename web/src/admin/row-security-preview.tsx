// What a chosen member would see: for each table with row filters, all rows, the rows a condition
// keeps, or none (a value the filter needs is missing), as the server would run it for them today.
import { useState } from 'react';
import { api, call } from '../api/client.ts';
import type { ResponseOf } from '../api/types.ts';
import { FormAlert } from '../ui/form-alert.tsx';
import { useLoad } from '../ui/use-load.ts';
import { MemberPicker, type Members } from './member-picker.tsx';

type Preview = ResponseOf<'/api/row-security/users/{user_id}/preview', 'get'>;

function Sees({ table: t }: { table: Preview['tables'][number] }) {
  if (t.sees === 'all') return <>every row (no filter applies to them)</>;
  if (t.sees === 'none') return <>no rows: a filter needs an attribute or group they do not have</>;
  return (
    <>
      the rows where <code>{t.filter}</code>
    </>
  );
}

export function RowSecurityPreview({ members }: { members: Members }) {
  const [userId, setUserId] = useState('');
  const preview = useLoad(async (signal): Promise<Preview | undefined> => (userId ? call(api.GET('/api/row-security/users/{user_id}/preview', { params: { path: { user_id: userId } }, signal })) : undefined), userId);
  const p = preview.data?.user_id === userId ? preview.data : undefined;
  const attributes = p ? Object.entries(p.attributes) : [];
  return (
    <section aria-labelledby="preview-title">
      <h2 id="preview-title">Preview what a member sees</h2>
      <MemberPicker label="Member to preview" members={members} value={userId} onChange={setUserId} none="Choose a member" />
      <FormAlert problem={preview.problem} />
      {userId && preview.loading && <p role="status">Loading…</p>}
      {p && (
        <div role="region" aria-label={`What ${p.email} sees`}>
          <p>
            {p.email} is {p.role === 'admin' ? 'an admin' : `a ${p.role}`}
            {attributes.length ? ` with ${attributes.map(([k, v]) => `${k} = ${v}`).join(', ')}` : ' with no attributes'}
            {p.groups.length ? `, in the groups ${p.groups.join(', ')}` : ', in no group'}.
          </p>
          {p.tables.length === 0 ? (
            <p>No table has a row filter: they see every row.</p>
          ) : (
            <div className="table-scroll" tabIndex={0} role="region" aria-label={`Tables ${p.email} may query`}>
              <table className="data-table">
                <caption>Tables with row filters in production</caption>
                <thead>
                  <tr>
                    <th scope="col">Table</th>
                    <th scope="col">They see</th>
                  </tr>
                </thead>
                <tbody>
                  {p.tables.map((t) => (
                    <tr key={`${t.connection}/${t.schema}.${t.name}`}>
                      <th scope="row">
                        {t.connection}/{t.schema}.{t.name}
                      </th>
                      <td>
                        <Sees table={t} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </div>
      )}
    </section>
  );
}
