// Tokens as a table of metadata (never values), each with a button that revokes it; and the value of
// a token just created, shown this once with a copy button.
import type { ResponseOf } from '../api/types.ts';
import { ConfirmButton } from '../ui/confirm-button.tsx';
import { CopyButton } from '../ui/copy-button.tsx';

export type TokenView = ResponseOf<'/api/auth/user/tokens', 'get'>['tokens'][number];

const day = (iso: string | null) => (iso ? new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' }) : '');

interface TokenTableProps {
  caption: string;
  tokens: TokenView[];
  onRevoke: (token: TokenView) => Promise<unknown>;
  /** What stops working, for the confirmation. */
  consequence: string;
}

export function TokenTable({ caption, tokens, onRevoke, consequence }: TokenTableProps) {
  if (tokens.length === 0) return <p className="muted">No active token.</p>;
  return (
    <table className="data-table tokens">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Starts with</th>
          <th scope="col">Created</th>
          <th scope="col">Expires</th>
          <th scope="col">Last used</th>
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {tokens.map((t) => (
          <tr key={t.token_id}>
            <td>
              {t.name || '(no name)'}
              {t.description && <span className="muted"> · {t.description}</span>}
            </td>
            <td>
              <code>{t.prefix}…</code>
            </td>
            <td>{day(t.created_at)}</td>
            <td>{t.expired ? 'Expired' : t.expires_at ? day(t.expires_at) : 'Never'}</td>
            <td>{t.last_used_at ? day(t.last_used_at) : 'Never'}</td>
            <td>
              <ConfirmButton label={`Revoke token ${t.name || t.prefix}`} question={`Revoke it? ${consequence}`} onConfirm={() => onRevoke(t)}>
                Revoke
              </ConfirmButton>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A token's value, right after it was made: the only time it is shown. */
export function NewTokenValue({ value, onDone }: { value: string; onDone: () => void }) {
  return (
    <div className="alert ok new-token" role="status">
      <p>
        <strong>Copy the token now:</strong> it is shown only this once.
      </p>
      <p>
        <code data-testid="new-token">{value}</code>
      </p>
      <div className="actions">
        <CopyButton text={value} label="Copy token" />
        <button type="button" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}
