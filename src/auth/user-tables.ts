// The tables of the converted account stores as the query builder sees them (migrations 0001, 0010,
// 0013, 0014, 0018): API, CLI and MCP tokens, queued account mail requests, organizations with
// their email domains and SSO providers, the OAuth server's grants and clients (0070), memberships
// (for the admin's "member of my organization" check), the profile columns of users, memories and
// dismissed disclaimers. Only the columns read or written
// here are named. The store typed with them and the single-use tables is `AuthStore`.
import type { Role } from './principal.ts';

export type TokenKind = 'api' | 'cli' | 'mcp';

export interface ApiTokenRow {
  id: string;
  user_id: string;
  org_id: string;
  kind: TokenKind;
  name: string;
  description: string;
  prefix: string;
  scopes: string;
  created_at: number;
  expires_at: number | null;
  last_used_at: number | null;
  revoked_at: number | null;
}

export interface SsoProviderRow {
  id: string;
  org_id: string;
  /** The slug in the sign-in URL (`/api/auth/{org}/{type}/login`). */
  type: string;
  name: string;
  issuer: string;
  client_id: string;
  client_secret: string | null;
  scopes: string;
  email_claim: string;
  groups_claim: string | null;
  jit_provisioning: number;
  default_role: Role;
  group_mappings: string;
  enabled: number;
  created_at: number;
  updated_at: number | null;
}

export interface UserTables {
  api_tokens: ApiTokenRow & { token_hash: string; created_by: string | null };
  organizations: { id: string; name: string; base_org_id: string | null };
  org_email_domains: { domain: string; org_id: string };
  sso_configs: SsoProviderRow;
  sso_logins: { org_id: string; type: string };
  sso_identities: { org_id: string; issuer: string };
  memberships: { user_id: string; org_id: string; role: string; deactivated_at: number | null };
  users: { id: string; email: string; name: string; slack_title: string; default_workspace_id: string | null; token_version: number; email_verified_at: number | null; password_hash: string | null; identity_kind: string | null; disabled_at: number | null };
  account_mail_requests: { id: string; kind: string; email: string; created_at: number };
  oauth_models: { model: string; id: string; payload: string; grant_id: string | null; uid: string | null; account_id: string | null; client_id: string | null; created_at: number; expires_at: number | null; consumed_at: number | null };
  sessions: { id: string; user_id: string; ended_at: number | null };
  user_memories: { id: string; user_id: string; title: string; title_from_user: number; content: string; created_at: number; updated_at: number };
  dismissed_disclaimers: { user_id: string; disclaimer_hash: string; created_at: number };
}
