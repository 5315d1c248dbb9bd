// Every route table of the REST API, one per area.
import type { RouteDef } from '../route.ts';
import type { Services } from '../services.ts';
import { accountRoutes } from './account.ts';
import { authMfaRoutes } from './auth-mfa.ts';
import { authRecoveryRoutes } from './auth-recovery.ts';
import { authRoutes } from './auth.ts';
import { healthRoutes } from './health.ts';
import { loginPageRoutes } from './login-page.ts';
import { ssoRoutes } from './sso.ts';
import { workspaceRoutes } from './workspaces.ts';

/** All REST routes, in registration order. */
export function allRoutes(s: Services): RouteDef[] {
  return [...healthRoutes(s), ...authRoutes(s), ...authMfaRoutes(s), ...authRecoveryRoutes(s), ...accountRoutes(s), ...workspaceRoutes(s), ...ssoRoutes(s), ...loginPageRoutes(s)];
}
