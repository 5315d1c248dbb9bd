// The SSO group port of src/auth, answered by src/data's row-level-security groups.
import type { SsoGroupPort } from '../auth/sso/group-mappings.ts';
import { syncManagedGroups } from '../data/rls/sso-group-members.ts';
import type { DataStore } from '../data/tables.ts';

/** SSO sign-ins set RLS group membership through this. */
export function ssoGroupPort(store: DataStore): SsoGroupPort {
  return { syncGroups: (p) => syncManagedGroups(store, p) };
}
