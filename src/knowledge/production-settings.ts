// Whether production's knowledge is written directly or only through environments, for the clients
// of admins and modelers to show production read-only. Admins change it among the organization settings.
import type { Principal } from '../auth/index.ts';
import type { KnowledgeDeps } from './deps.ts';
import { requireEnvironmentRole } from './scope.ts';

/** The organization's rule on production, as admins and modelers read it. */
export async function productionSettings(deps: KnowledgeDeps, p: Principal): Promise<{ production_through_environments: boolean }> {
  requireEnvironmentRole(p);
  return { production_through_environments: await deps.productionThroughEnvironments(p.orgId) };
}
