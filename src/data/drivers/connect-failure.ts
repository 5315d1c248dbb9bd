// Why a server warehouse refused a connection, read from the client library's error code, so the
// admin's "test connection" can say it in words (wrong password, nothing answering...) whatever the
// library's message text says.

/** What went wrong when connecting; `other` when the library's code says nothing we know. */
export type ConnectFailure = 'wrong_credentials' | 'unknown_database' | 'unreachable' | 'timed_out' | 'tls' | 'other';

const BY_CODE: Record<string, ConnectFailure> = {
  // PostgreSQL SQLSTATEs: invalid_password, invalid_authorization_specification (unknown role, no pg_hba entry), invalid_catalog_name.
  '28P01': 'wrong_credentials',
  '28000': 'wrong_credentials',
  '3D000': 'unknown_database',
  // MySQL and MariaDB.
  ER_ACCESS_DENIED_ERROR: 'wrong_credentials',
  ER_DBACCESS_DENIED_ERROR: 'wrong_credentials',
  ER_BAD_DB_ERROR: 'unknown_database',
  // The network, as Node reports it.
  ECONNREFUSED: 'unreachable',
  EHOSTUNREACH: 'unreachable',
  ENETUNREACH: 'unreachable',
  ECONNRESET: 'unreachable',
  ETIMEDOUT: 'timed_out',
  // Certificates, as Node's TLS reports them.
  DEPTH_ZERO_SELF_SIGNED_CERT: 'tls',
  SELF_SIGNED_CERT_IN_CHAIN: 'tls',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'tls',
  CERT_HAS_EXPIRED: 'tls',
  ERR_TLS_CERT_ALTNAME_INVALID: 'tls',
};

/** Classifies a connect error by its code; pg reports its own connect timeout only in words. */
export function connectFailure(err: unknown): ConnectFailure {
  const code = (err as { code?: unknown }).code;
  const known = typeof code === 'string' ? BY_CODE[code] : undefined;
  if (known) return known;
  const message = err instanceof Error ? err.message : '';
  if (/timeout/i.test(message)) return 'timed_out';
  if (/\bSSL\b|\bTLS\b/.test(message)) return 'tls';
  return 'other';
}
