// Which account an SSO sign-in belongs to, on the asynchronous store: the one linked to the provider's
// subject before, or the organization's member with the claimed address, or (just in time) a new user.
// Concurrent first sign-ins of one new person race on the users' unique email: the creating batch
// requires its user insert, so the loser rolls back whole and links to the winner's account instead.
import { sql } from 'kysely';
import type { IdTokenClaims } from './id-token.ts';
import { Forbidden } from '../../errors.ts';
import type { Clock } from '../../clock.ts';
import { newId } from '../../security/index.ts';
import type { Executor } from '../../store/index.ts';
import type { UserRow } from '../directory.ts';
import { SsoFailed } from './oidc-client.ts';
import type { SsoProviderRow } from './provider-store.ts';

type Deps = { store: Executor; clock: Clock };

const notAMember = (): Forbidden => new Forbidden('Account is not a member of this organization', 'NOT_A_MEMBER');

function userById(x: Executor, id: string): Promise<UserRow | undefined> {
  return x.one(sql<UserRow>`SELECT * FROM users WHERE id = ${id}`);
}

/** The user with this address who is a member of the organization (deactivated or not); undefined when nobody has it. */
async function memberByEmail(x: Executor, orgId: string, email: string): Promise<UserRow | undefined> {
  const user = await x.one(sql<UserRow>`SELECT * FROM users WHERE email = ${email}`);
  if (user && !(await x.one(sql`SELECT 1 AS one FROM memberships WHERE user_id = ${user.id} AND org_id = ${orgId}`))) throw notAMember();
  return user;
}

function linkIdentity(config: SsoProviderRow, subject: string, userId: string, now: number) {
  return sql`INSERT INTO sso_identities (org_id, issuer, subject, user_id, created_at)
    VALUES (${config.org_id}, ${config.issuer}, ${subject}, ${userId}, ${now}) ON CONFLICT (issuer, subject) DO NOTHING`;
}

/** Creates the user, their membership and the link in one batch: the new user's id, or undefined when the address was taken meanwhile. */
async function createMember(deps: Deps, config: SsoProviderRow, p: { subject: string; email: string; name: string }): Promise<string | undefined> {
  const id = newId();
  const now = deps.clock.now();
  const done = await deps.store.batch(
    [
      sql`INSERT INTO users (id, email, name, identity_kind, email_verified_at, created_at)
        VALUES (${id}, ${p.email}, ${p.name}, 'sso', ${now}, ${now}) ON CONFLICT (email) DO NOTHING`,
      sql`INSERT INTO memberships (user_id, org_id, role, can_merge, created_at) VALUES (${id}, ${config.org_id}, ${config.default_role}, 0, ${now})`,
      linkIdentity(config, p.subject, id, now),
    ],
    { require: [0] },
  );
  return done.ok ? id : undefined;
}

/** The account of the provider's subject, which must be an enabled member of the organization. */
async function linkedUser(x: Executor, config: SsoProviderRow, subject: string): Promise<UserRow | 'unlinked'> {
  const linked = await x.one(sql<{ user_id: string }>`SELECT user_id FROM sso_identities WHERE issuer = ${config.issuer} AND subject = ${subject}`);
  if (!linked) return 'unlinked';
  const user = await userById(x, linked.user_id);
  const member = user && (await x.one(sql`SELECT 1 AS one FROM memberships WHERE user_id = ${user.id} AND org_id = ${config.org_id}`));
  if (!user || user.disabled_at !== null || !member) throw notAMember();
  return user;
}

/** The verified address the provider claims, lower-cased as users are stored. */
function claimedEmail(config: SsoProviderRow, claims: IdTokenClaims): string {
  const claimed = claims[config.email_claim];
  // A custom email claim is the provider's own statement; the standard one must be verified.
  if (typeof claimed !== 'string' || !claimed || (config.email_claim === 'email' && claims['email_verified'] !== true)) throw new SsoFailed('email_not_verified');
  return claimed.trim().toLowerCase();
}

/** The user for the provider's subject: linked before, or matched by verified email among members, or created. */
export async function linkUser(deps: Deps, config: SsoProviderRow, claims: IdTokenClaims): Promise<UserRow> {
  const subject = claims.sub;
  if (!subject) throw new SsoFailed('no_subject');
  const linked = await linkedUser(deps.store, config, subject);
  if (linked !== 'unlinked') return linked;
  const email = claimedEmail(config, claims);
  let user = await memberByEmail(deps.store, config.org_id, email);
  if (!user) {
    if (config.jit_provisioning !== 1) throw notAMember();
    const name = typeof claims['name'] === 'string' ? claims['name'] : '';
    const created = await createMember(deps, config, { subject, email, name });
    user = created === undefined ? undefined : await userById(deps.store, created);
    if (user) return user;
    // Another sign-in created the address first: a member to link, or someone else's account.
    user = await memberByEmail(deps.store, config.org_id, email);
    if (!user) throw notAMember();
  }
  await deps.store.run(linkIdentity(config, subject, user.id, deps.clock.now()));
  return user;
}
