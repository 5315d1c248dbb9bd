// What subscriptions read from other domains, declared here and implemented in src/compose.
import type { Principal } from '../auth/index.ts';

/** One table of a report: a saved question's fresh rows, or a dashboard tile's (with its error, if it failed). */
export interface ReportTile {
  title: string;
  columns: { name: string; type: string }[];
  rows: unknown[][];
  /** The Vega-Lite spec; null for a table only. */
  chart: Record<string, unknown> | null;
  /** When the rows were read; null for a tile that failed before reading any. */
  read_at: string | null;
  error?: string | undefined;
}

/** What a run sends: a title and its tables. */
export interface Report {
  title: string;
  tiles: ReportTile[];
}

/**
 * Dashboards as subscriptions read them (implemented where dashboards live; until then by a source that
 * knows none). Both answer NotFound for a dashboard `p` may not read.
 */
export interface DashboardSource {
  check(p: Principal, dashboardId: string): Promise<{ title: string }>;
  render(p: Principal, dashboardId: string): Promise<Report>;
}

/** Saved questions as subscriptions read them, under the reader's permissions (NotFound otherwise). */
export interface QuestionSource {
  check(p: Principal, questionId: string): Promise<{ title: string }>;
  render(p: Principal, questionId: string): Promise<Report>;
}

export interface SubscriptionPorts {
  /** The owner as they act now (current role and permissions); undefined once deactivated or gone. */
  principalOf(orgId: string, userId: string): Promise<Principal | undefined>;
  questions: QuestionSource;
  dashboards: DashboardSource;
  /** The owner's address, for notices. */
  emailOf(userId: string): Promise<string | undefined>;
  /** Which of the addresses belong to active members of the organization (lower case). */
  memberAddresses(orgId: string, addresses: string[]): Promise<Set<string>>;
  /** Whether an admin allowed reports to addresses outside the organization. */
  externalRecipientsAllowed(orgId: string): Promise<boolean>;
}
