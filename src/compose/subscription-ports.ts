// The subscriptions domain's ports: owners as they act now (auth), saved questions run as the owner
// (src/saved, the governed path), members' addresses and the organization's setting on other
// recipients (auth), and dashboards (their tiles run as the owner).
import { getUser, principalFor, SCOPE_API_FULL } from '../auth/index.ts';
import { activeMemberAddresses, externalRecipientsAllowed } from '../auth/members/index.ts';
import { dashboard, runDashboard, type DashboardDeps } from '../dashboards/index.ts';
import { runQuestion, savedQuestion, type SavedDeps } from '../saved/index.ts';
import type { Executor } from '../store/index.ts';
import type { DashboardSource, SubscriptionPorts } from '../subscriptions/index.ts';

/**
 * Dashboards as subscriptions read them: readable by the principal (NotFound otherwise, as the
 * dashboards module answers), and rendered by running every tile as the principal, each tile's failure
 * kept in its tile.
 */
export function dashboardSource(deps: DashboardDeps): DashboardSource {
  return {
    async check(p, id) {
      return { title: (await dashboard(deps, p, id)).title };
    },
    async render(p, id) {
      const d = await runDashboard(deps, { organizationId: p.orgId, userId: p.userId, dashboardId: id });
      return {
        title: d.title,
        tiles: d.tiles
          .filter((t) => t.text === null)
          .map((t) => ({ title: t.title ?? 'Untitled', columns: t.columns, rows: t.rows, chart: t.chart, read_at: t.read_at, error: t.error?.message })),
      };
    },
  };
}

/** Subscriptions read owners, saved questions and members through the modules that own them. */
export function subscriptionPorts(store: Executor, saved: SavedDeps, dashboards: DashboardSource): SubscriptionPorts {
  return {
    async principalOf(orgId, userId) {
      const user = await getUser(store, userId);
      return user ? principalFor(store, user, orgId, 'session', [SCOPE_API_FULL]) : undefined;
    },
    questions: {
      async check(p, id) {
        return { title: (await savedQuestion(saved, p, id)).title };
      },
      async render(p, id) {
        const q = await savedQuestion(saved, p, id);
        const r = await runQuestion(saved, p, id, { environmentId: undefined });
        return { title: q.title, tiles: [{ title: q.title, columns: r.columns, rows: r.rows, chart: q.chart, read_at: r.read_at }] };
      },
    },
    dashboards,
    async emailOf(userId) {
      return (await getUser(store, userId))?.email;
    },
    memberAddresses: (orgId, addresses) => activeMemberAddresses(store, orgId, addresses),
    externalRecipientsAllowed: (orgId) => externalRecipientsAllowed(store, orgId),
  };
}
