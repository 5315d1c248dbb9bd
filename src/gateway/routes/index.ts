// Every route table of the REST API, one per area, one per line.
import type { RouteDef } from '../route.ts';
import type { Services } from '../../compose/services.ts';
import { accountRoutes } from './account.ts';
import { authMfaRoutes } from './auth-mfa.ts';
import { authRecoveryRoutes } from './auth-recovery.ts';
import { authRoutes } from './auth.ts';
import { cliAuthorizeRoutes } from './cli-authorize.ts';
import { cliDistributionRoutes } from './cli-dist.ts';
import { cliLoginRoutes } from './cli-login.ts';
import { connectionRoutes } from './connections.ts';
import { dataCatalogRoutes } from './data-catalog.ts';
import { dataQueryRoutes } from './data-queries.ts';
import { environmentRoutes } from './environments.ts';
import { evaluationRoutes } from './evaluations.ts';
import { healthRoutes } from './health.ts';
import { operationsRoutes } from './operations.ts';
import { knowledgeRoutes } from './knowledge.ts';
import { mcpOAuthRoutes } from '../oauth/oauth-routes.ts';
import { rowSecurityRoutes } from './row-security.ts';
import { ssoRoutes } from './sso.ts';
import { tokenRoutes } from './tokens.ts';
import { workspaceRoutes } from './workspaces.ts';
import { uploadRoutes } from './uploads.ts';
import { chatRoutes } from './chats.ts';
import { chatSharingRoutes } from './chat-sharing.ts';
import { chatExtraRoutes } from './chat-extras.ts';
import { agenticRoutes } from './agentic.ts';
import { downloadRoutes } from './downloads.ts';
import { adminMemberRoutes } from './admin-members.ts';
import { adminWorkspaceRoutes } from './admin-workspaces.ts';
import { adminSsoRoutes } from './admin-sso.ts';
import { adminAuditRoutes } from './admin-audit.ts';
import { adminUsageRoutes } from './admin-usage.ts';
import { adminEmailDomainRoutes } from './admin-email-domains.ts';
import { importRoutes } from './imports.ts';
import { savedQuestionRoutes } from './saved-questions.ts';
import { dashboardRoutes } from './dashboards.ts';
import { dashboardSharingRoutes } from './dashboard-sharing.ts';
import { subscriptionRoutes } from './subscriptions.ts';

const tables: ((s: Services) => RouteDef[])[] = [
  healthRoutes,
  operationsRoutes,
  authRoutes,
  authMfaRoutes,
  authRecoveryRoutes,
  accountRoutes,
  workspaceRoutes,
  ssoRoutes,
  tokenRoutes,
  cliLoginRoutes,
  cliAuthorizeRoutes,
  knowledgeRoutes,
  environmentRoutes,
  evaluationRoutes,
  connectionRoutes,
  rowSecurityRoutes,
  dataQueryRoutes,
  dataCatalogRoutes,
  mcpOAuthRoutes,
  cliDistributionRoutes,
  uploadRoutes,
  chatRoutes,
  chatSharingRoutes,
  chatExtraRoutes,
  agenticRoutes,
  downloadRoutes,
  adminMemberRoutes,
  adminWorkspaceRoutes,
  adminSsoRoutes,
  adminAuditRoutes,
  adminUsageRoutes,
  adminEmailDomainRoutes,
  importRoutes,
  savedQuestionRoutes,
  dashboardRoutes,
  dashboardSharingRoutes,
  subscriptionRoutes,
];

/** All REST routes, in registration order. */
export function allRoutes(s: Services): RouteDef[] {
  return tables.flatMap((table) => table(s));
}
