// The subscriptions domain's ports: owners as they act now (auth), saved questions run as the owner
// (src/saved, the governed path), members' addresses and the organization's setting on other
// recipients (auth), and dashboards (none yet: see noDashboards).
import { getUser, principalFor, SCOPE_API_FULL } from '../auth/index.ts';
import { activeMemberAddresses, externalRecipientsAllowed } from '../auth/members/index.ts';
import { NotFound } from '../errors.ts';
import { runQuestion, savedQuestion, type SavedDeps } from '../saved/index.ts';
import type { Executor } from '../store/index.ts';
import type { DashboardSource, SubscriptionPorts } from '../subscriptions/index.ts';

/**
 * Dashboards as subscriptions see them until the dashboards module is wired in here: none exists, so
 * a subscription to a dashboard answers 404. Replace with that module's source (check: the dashboard
 * readable by the principal; render: its tiles run as the principal).
 */
export const noDashboards: DashboardSource = {
  check: () => Promise.reject(new NotFound('Dashboard not found', 'DASHBOARD_NOT_FOUND')),
  render: () => Promise.reject(new NotFound('Dashboard not found', 'DASHBOARD_NOT_FOUND')),
};

/** Subscriptions read owners, saved questions and members through the modules that own them. */
export function subscriptionPorts(store: Executor, saved: SavedDeps, dashboards: DashboardSource = noDashboards): SubscriptionPorts {
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
