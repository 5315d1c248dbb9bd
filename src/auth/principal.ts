/** Roles within an organization, weakest first. */
export const ROLES = ['user', 'modeler', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** Fine-grained permissions beyond the role. */
export type Permission = 'merge_to_production';

/** How the caller proved who they are. */
export type CredentialKind =
  | 'session' // session JWT (cookie or bearer), after every sign-in step
  | 'api_token' // general API token
  | 'cli_token' // token minted for the command-line tool, scope api:full
  | 'mcp_token' // MCP token, scope mcp:*; only valid on /ai/mcp
  | 'oauth' // OAuth access token for an MCP client
  | 'enrollment' // MFA enrollment token: only the MFA setup and confirm endpoints accept it
  | 'embedded'; // short-lived embedded-user token

/** The caller of a domain function: who, in which organization, with what rights. */
export interface Principal {
  userId: string;
  email: string;
  /** The organization the request acts in (a workspace or the base organization). */
  orgId: string;
  /** The base organization of `orgId` (equal to it when not in a workspace). */
  baseOrgId: string;
  role: Role;
  permissions: Permission[];
  credential: CredentialKind;
  scopes: string[];
  /** The API token or session behind the credential, when there is one. */
  tokenId?: string;
  sessionId?: string;
}

export const SCOPE_API_FULL = 'api:full';
export const SCOPE_MCP_ALL = 'mcp:*';

/** True when the principal's role is at least `role`. */
export function hasRole(p: Principal, role: Role): boolean {
  return ROLES.indexOf(p.role) >= ROLES.indexOf(role);
}

/** Admins always merge; modelers need the "Can merge changes to production" permission. */
export function canMergeToProduction(p: Principal): boolean {
  return p.role === 'admin' || (p.role === 'modeler' && p.permissions.includes('merge_to_production'));
}
