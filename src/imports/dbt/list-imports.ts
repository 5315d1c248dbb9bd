// The imports kept with an environment, newest first.
import { hasRole, type Principal } from '../../auth/index.ts';
import { Forbidden } from '../../errors.ts';
import type { ImportDeps } from './deps.ts';
import { listImports } from './imports-store.ts';

/** Summaries of the dbt imports into an environment of the caller's organization (404 for another's). */
export async function listDbtImports(deps: ImportDeps, p: Principal, environmentId: string) {
  if (!hasRole(p, 'modeler')) throw new Forbidden('Imports are for admins and modelers');
  await deps.knowledge.checkEnvironment(p, environmentId);
  return { imports: await listImports(deps.store, p.orgId, environmentId) };
}
