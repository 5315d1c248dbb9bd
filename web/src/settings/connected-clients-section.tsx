// AI apps the person connected with OAuth (Claude, Cursor...): disconnecting one revokes its access
// at once.
import { api, call } from '../api/client.ts';
import { ConfirmButton } from '../ui/confirm-button.tsx';
import { FormAlert } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import { useLoad } from '../ui/use-load.ts';

const day = (ms: number) => new Date(ms).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });

export function ConnectedClientsSection() {
  const clients = useLoad((signal) => call(api.GET('/api/auth/user/mcp/clients', { signal })));
  const disconnect = useAction(async (grantId: string) => {
    await call(api.DELETE('/api/auth/user/mcp/clients/{grant_id}', { params: { path: { grant_id: grantId } } }));
    clients.update((c) => ({ clients: c.clients.filter((x) => x.grant_id !== grantId) }));
  });
  const list = clients.data?.clients ?? [];
  return (
    <section aria-labelledby="connected-clients-title">
      <h2 id="connected-clients-title">Connected MCP apps</h2>
      <p className="muted">Apps you allowed to use Sextant on your behalf through OAuth.</p>
      <FormAlert problem={clients.problem ?? disconnect.problem} />
      {clients.data && list.length === 0 && <p className="muted">No app is connected.</p>}
      {list.length > 0 && (
        <ul className="cards" aria-label="Connected apps">
          {list.map((c) => {
            const name = c.client_name || c.client_id;
            return (
              <li key={c.grant_id} className="card row">
                <span>
                  <strong>{name}</strong>
                  <span className="muted"> · connected {day(c.connected_at)}</span>
                </span>
                <span className="spacer" />
                <ConfirmButton label={`Disconnect ${name}`} question="Disconnect it? It loses access at once." onConfirm={() => disconnect.run(c.grant_id)}>
                  Disconnect
                </ConfirmButton>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
