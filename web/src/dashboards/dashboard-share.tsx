// Read-only links: create one (its tiles run with your permissions, which the page says), see them,
// revoke one.
import { api, call } from '../api/client.ts';
import { FormAlert } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import { useLoad } from '../ui/use-load.ts';

export function DashboardShare({ id }: { id: string }) {
  const shares = useLoad((signal) => call(api.GET('/api/dashboards/{id}/shares', { params: { path: { id } }, signal })), id);
  const create = useAction(async () => {
    await call(api.POST('/api/dashboards/{id}/shares', { params: { path: { id } } }));
    await shares.reload();
  });
  const revoke = useAction(async (shareId: string) => {
    await call(api.DELETE('/api/dashboards/{id}/shares/{share_id}', { params: { path: { id, share_id: shareId } } }));
    await shares.reload();
  });
  return (
    <section className="dashboard-share" aria-label="Share links">
      <p className="muted">Anyone with a link sees this dashboard read-only, with the data you may see: its tiles run with your permissions.</p>
      <FormAlert problem={shares.problem ?? create.problem ?? revoke.problem} />
      <button type="button" disabled={create.pending} onClick={() => void create.run()}>
        Create a link
      </button>
      <ul aria-label="Links">
        {shares.data?.shares.map((s) => (
          <li key={s.share_id}>
            <a href={s.page_url}>{s.page_url}</a>{' '}
            <button type="button" onClick={() => void revoke.run(s.share_id)}>
              Revoke
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
