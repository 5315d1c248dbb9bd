// A connection's test and save refusals in words an admin acts on, read from the server's stable
// codes (never from the driver's message, whose wording changes with the library).
import type { ApiProblem } from '../api/problem.ts';
import type { ResponseOf } from '../api/types.ts';

export type Connection = ResponseOf<'/api/connections/{connection_id}', 'get'>;
export type ConnectionType = Connection['type'];
export type TestResult = ResponseOf<'/api/connections/{connection_id}/test', 'post'>;

export const TYPE_OPTIONS: { value: ConnectionType; label: string }[] = [
  { value: 'duckdb', label: 'DuckDB file' },
  { value: 'sqlite', label: 'SQLite file' },
  { value: 'postgresql', label: 'PostgreSQL' },
  { value: 'mysql', label: 'MySQL' },
  { value: 'mariadb', label: 'MariaDB' },
];

export const isFileType = (type: ConnectionType) => type === 'duckdb' || type === 'sqlite';

export const typeLabel = (type: ConnectionType) => TYPE_OPTIONS.find((o) => o.value === type)?.label ?? type;

/** Where the connection points, without the password: the file, or user@host:port/database. */
export function whereItPoints(c: Connection): string {
  const s = c.settings;
  if (isFileType(c.type)) return s.path ?? '';
  return `${s.user ? `${s.user}@` : ''}${s.host ?? ''}${s.port ? `:${s.port}` : ''}${s.database ? `/${s.database}` : ''}`;
}

const UNAVAILABLE: Record<string, string> = {
  wrong_credentials: 'The server refused the user name or password. Check both, and that this user may connect to the database.',
  unknown_database: 'The server answered, but has no database by that name. Check the database name.',
  unreachable: 'Nothing answered at this host and port. Check both, and that the server accepts connections from Sextant.',
  timed_out: 'The server did not answer in time. It may be down, or a firewall may be dropping the connection.',
  tls: "The encrypted connection failed: the server's certificate was not accepted, or the server does not offer TLS. Check the TLS setting.",
};

/** What a test found, as a sentence. */
export function testVerdict(r: TestResult): string {
  if (r.ok) return `It works: ${r.table_count ?? 0} table${r.table_count === 1 ? '' : 's'} visible, answered in ${r.duration_ms} ms.`;
  if (r.code === 'CONNECTION_HOST_UNRESOLVED') return 'The host name does not resolve to an address. Check it for typing mistakes.';
  if (r.code === 'WAREHOUSE_UNAVAILABLE' && r.reason && UNAVAILABLE[r.reason]) return UNAVAILABLE[r.reason]!;
  if (r.code === 'WAREHOUSE_PATH_REFUSED') return `The file is refused. ${r.error ?? ''}`;
  return `It does not work. ${r.error ?? ''}`;
}

/** The words for a host the server will not connect to (on save, or on a test), or undefined for other problems. */
export function hostRefusal(problem: ApiProblem | undefined): string | undefined {
  if (problem?.code === 'CONNECTION_HOST_REFUSED')
    return 'The outbound rules refuse this host: Sextant does not connect to internal or private addresses unless the operator allows them (SEXTANT_OUTBOUND_ALLOW).';
  if (problem?.code === 'CONNECTION_HOST_UNRESOLVED') return 'The host name does not resolve to an address. Check it for typing mistakes.';
  return undefined;
}
