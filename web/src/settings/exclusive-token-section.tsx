// The MCP token and the CLI token: one active each. Making a new one revokes the old one; its value
// is shown once.
import { useId, useState, type ReactNode } from 'react';
import { api, call } from '../api/client.ts';
import { FormAlert } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import { useLoad } from '../ui/use-load.ts';
import { NewTokenValue, TokenTable } from './token-table.tsx';

interface ExclusiveTokenSectionProps {
  kind: 'mcp' | 'cli';
  title: string;
  intro: ReactNode;
  consequence: string;
}

const list = (kind: 'mcp' | 'cli', signal: AbortSignal) =>
  kind === 'mcp' ? call(api.GET('/api/auth/user/tokens/mcp', { signal })) : call(api.GET('/api/auth/user/tokens/cli', { signal }));
const create = (kind: 'mcp' | 'cli') => (kind === 'mcp' ? call(api.POST('/api/auth/user/tokens/mcp')) : call(api.POST('/api/auth/user/tokens/cli')));
const revoke = (kind: 'mcp' | 'cli', tokenId: string) =>
  kind === 'mcp'
    ? call(api.DELETE('/api/auth/user/tokens/mcp/{token_id}', { params: { path: { token_id: tokenId } } }))
    : call(api.DELETE('/api/auth/user/tokens/cli/{token_id}', { params: { path: { token_id: tokenId } } }));

export function ExclusiveTokenSection({ kind, title, intro, consequence }: ExclusiveTokenSectionProps) {
  const id = useId();
  const tokens = useLoad((signal) => list(kind, signal), kind);
  const [value, setValue] = useState<string | undefined>();
  const make = useAction(async () => {
    setValue((await create(kind)).token);
    await tokens.reload();
  });
  const remove = useAction(async (tokenId: string) => {
    await revoke(kind, tokenId);
    tokens.update((t) => ({ tokens: t.tokens.filter((x) => x.token_id !== tokenId) }));
  });
  const existing = (tokens.data?.tokens.length ?? 0) > 0;
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <p className="muted">{intro}</p>
      <FormAlert problem={tokens.problem ?? make.problem ?? remove.problem} />
      {value && <NewTokenValue value={value} onDone={() => setValue(undefined)} />}
      {tokens.data && <TokenTable caption={`Your ${title}`} tokens={tokens.data.tokens} consequence={consequence} onRevoke={(t) => remove.run(t.token_id)} />}
      <div className="actions">
        <button type="button" className="primary" disabled={make.pending || !tokens.data} onClick={() => void make.run()}>
          {existing ? `Replace ${title}` : `Create ${title}`}
        </button>
        {existing && <span className="muted">A new one revokes the current one.</span>}
      </div>
    </section>
  );
}
