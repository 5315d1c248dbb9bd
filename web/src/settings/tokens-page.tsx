// /settings/tokens: the person's credentials for programs: the MCP token and the AI apps connected
// with OAuth, the CLI token, and general API tokens.
import { useDocumentTitle } from '../ui/document-title.ts';
import { ApiTokensSection } from './api-tokens-section.tsx';
import { ConnectedClientsSection } from './connected-clients-section.tsx';
import { ExclusiveTokenSection } from './exclusive-token-section.tsx';

export function TokensPage() {
  useDocumentTitle('Tokens and connected apps');
  const origin = window.location.origin;
  return (
    <>
      <h1>Tokens and connected apps</h1>
      <ExclusiveTokenSection
        kind="mcp"
        title="MCP token"
        intro={
          <>
            For AI assistants that connect to <code>{origin}/ai/mcp</code> with a token in the <code>X-API-KEY</code> header. It can only use the MCP tools, and expires after a year.
          </>
        }
        consequence="Assistants using it lose access."
      />
      <ConnectedClientsSection />
      <ExclusiveTokenSection
        kind="cli"
        title="CLI token"
        intro={
          <>
            For the <code>sextant</code> command-line tool on a machine without a browser (elsewhere, <code>sextant login</code> gets one for you). It acts with your permissions.
          </>
        }
        consequence="The command-line tool using it is signed out."
      />
      <ApiTokensSection />
    </>
  );
}
