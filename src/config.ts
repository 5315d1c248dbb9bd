// The only reader of process.env. Every setting has a documented default (see docs/configuration.md);
// secrets that are not set are generated once and kept in the data directory (config-secrets.ts).
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve, sep } from 'node:path';
import { z } from 'zod';
import { isAddressOrCidr } from './outbound/allow-list.ts';
import { loadSecrets, type Secrets } from './config-secrets.ts';
import { DEFAULT_MAX_RECURSION } from './shared/query-limits.ts';
import { parseTrustedProxies, type TrustedProxies } from './security/proxy-trust.ts';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** Settings of one running service. Tests build their own with `testConfig`. */
export interface Config {
  /** The service's version, from package.json. */
  version: string;
  port: number;
  host: string;
  baseUrl: string;
  dataDir: string;
  /**
   * PostgreSQL service database (SEXTANT_DATABASE_URL, postgres://...): the service is served from it
   * (migrated at start), knowledge takes its write lock there, and replicas may share the data folder.
   * Without it, SQLite in the data folder.
   */
  databaseUrl: string | undefined;
  /**
   * How long one connection to the service database may take to set up before it fails
   * (SEXTANT_DATABASE_CONNECT_TIMEOUT_MS, 0: no limit): the pool of the store and of the knowledge lock.
   */
  databaseConnectTimeoutMs: number;
  logLevel: LogLevel;
  seedDemo: boolean;
  corsOrigins: string[];
  bodyLimitBytes: number;
  uploadLimitBytes: number;
  /** Total bytes of one chat's uploads (extracted archives included). */
  uploadChatLimitBytes: number;
  trustProxy: boolean;
  /**
   * The proxies whose `X-Forwarded-For`/`-Proto` count (SEXTANT_TRUSTED_PROXIES: a hop count or CIDRs;
   * one hop when only SEXTANT_TRUST_PROXY is set); undefined when no proxy is trusted.
   */
  trustedProxies: TrustedProxies | undefined;
  shutdownGraceMs: number;
  /** Lifetime of a CLI device sign-in code, seconds (SEXTANT_CLI_LOGIN_TTL_SECONDS, default 600). */
  cliLoginTtlSeconds: number;
  /** Questions a user may ask `GET /api/cli/help` per hour (SEXTANT_CLI_HELP_PER_HOUR, default 30). */
  cliHelpPerHour: number;
  /** Lifetime of an embedded-user token, seconds (SEXTANT_EMBEDDED_TOKEN_TTL_SECONDS, default 900). */
  embeddedTokenTtlSeconds: number;
  mail: MailConfig;
  /** bcrypt cost of new passwords and MFA recovery codes (default 10; tests lower it). */
  bcryptCost: number;
  /** Data plane: default row limit of the context-agent query, statement timeout, warehouse file folders. */
  data: DataConfig;
  secrets: Secrets;
  /** The agent: model provider, limits and credit prices. */
  agent: AgentConfig;
  /** Evaluation runs: questions asked at once (SEXTANT_EVAL_CONCURRENCY) and the time one question may take. */
  evaluations: EvaluationConfig;
  /** How often each replica's subscription scheduler looks for due slots (SEXTANT_SUBSCRIPTION_TICK_MS; 0: never, tests tick by hand). */
  subscriptionTickMs: number;
  /**
   * For tests only (SEXTANT_TEST_SUBSCRIPTION_CLOCK_FILE): a file holding the time, in ms since the epoch,
   * that the subscription scheduler reads instead of the system clock, so a test moves the schedule of
   * built server processes without waiting. Undefined: the system clock.
   */
  subscriptionClockFile: string | undefined;
  /** Operations: Redis, metrics and tracing (SEXTANT_REDIS_URL, SEXTANT_METRICS*, SEXTANT_OTEL_ENDPOINT). */
  ops: OpsConfig;
  /** DNS servers the TXT records of email-domain verification are asked of (SEXTANT_DNS_SERVERS, `ip` or `ip:port`); undefined: the system's. */
  dnsServers: string[] | undefined;
  /**
   * Internal hosts the server may reach on a user's behalf (SEXTANT_OUTBOUND_ALLOW: comma-separated host
   * names, addresses and CIDRs; default none): an internal IdP or git server. Everything else that is not
   * a public unicast address is refused.
   */
  outboundAllow: string[];
  /** Warnings found while loading (insecure defaults); printed at start. */
  warnings: string[];
}

export interface OpsConfig {
  /** Redis shared by replicas (SEXTANT_REDIS_URL): rate-limit counters live there, and readiness pings it. */
  redisUrl: string | undefined;
  /** Prefix of every key Sextant writes in Redis (SEXTANT_REDIS_PREFIX, default `sextant`): installations may share one Redis. */
  redisPrefix: string;
  /** Prometheus metrics at /metrics (SEXTANT_METRICS, default true). */
  metrics: boolean;
  /** Bearer token /metrics requires (SEXTANT_METRICS_TOKEN); without it (and without a metrics port) the public listener answers 404. */
  metricsToken: string | undefined;
  /** A separate listener serving only /metrics (SEXTANT_METRICS_PORT), on SEXTANT_METRICS_HOST (default 127.0.0.1). */
  metricsPort: number | undefined;
  metricsHost: string;
  /** OTLP/HTTP traces endpoint (SEXTANT_OTEL_ENDPOINT, e.g. http://collector:4318/v1/traces); no tracing without it. */
  otelEndpoint: string | undefined;
}

/** Outgoing mail: SMTP when `smtpUrl` is set, else the outbox table plus a log line. */
export interface MailConfig {
  smtpUrl: string | undefined;
  from: string;
  /** Account mails (sign-in link, reset, verification, recovery) per hour to one address, and per client address. */
  perAddressPerHour: number;
  perClientPerHour: number;
  /** Invitation mails (new and resent) one organization may send per UTC day (SEXTANT_INVITATIONS_PER_DAY, default 50). */
  invitationsPerDay: number;
}

export interface DataConfig {
  /** Rows returned by a query when the caller sets no limit (SEXTANT_QUERY_ROW_LIMIT, default 10,000). */
  queryRowLimit: number;
  /** Time a query may keep its warehouse busy before it is stopped (SEXTANT_QUERY_TIMEOUT_MS, default 60,000). */
  queryTimeoutMs: number;
  /** Query processes for DuckDB and SQLite warehouses at work at once (SEXTANT_QUERY_PROCESSES, default 4). */
  queryProcesses: number;
  /** Memory one such process may hold (SEXTANT_QUERY_MEMORY_MB, default 1024). */
  queryMemoryMb: number;
  /** Query processes kept warm when the pool has been quiet for 30 s; after a burst, as many as were busy (SEXTANT_QUERY_IDLE_PROCESSES, default 2). */
  queryIdleProcesses: number;
  /** Iterations of a recursive CTE on MariaDB and MySQL, rows its recursive terms produce on SQLite and DuckDB, its depth on PostgreSQL (SEXTANT_QUERY_MAX_RECURSION, default 10,000). */
  queryMaxRecursion: number;
  /** Folders DuckDB and SQLite connection files may live in (SEXTANT_WAREHOUSE_ROOTS, default `<dataDir>/warehouse`). */
  warehouseRoots: string[];
  /** Orders in the generated demo warehouse (SEXTANT_DEMO_WAREHOUSE_ORDERS, default 120,000). */
  demoWarehouseOrders: number;
}

export interface EvaluationConfig {
  /** Questions of evaluation runs asked at the same time, across all runs (default 4). */
  concurrency: number;
  /** A question (with its follow-up) still unanswered after this ends in error `timeout` (default 300,000). */
  questionTimeoutMs: number;
}

/** Model provider and agent settings (SEXTANT_LLM_*, SEXTANT_AGENT_*, SEXTANT_CREDITS_*). */
export interface AgentConfig {
  /** `offline` is the embedded deterministic planner; `openai` is any OpenAI-compatible endpoint. */
  provider: 'offline' | 'openai' | 'anthropic';
  /** Endpoint of the provider (OpenAI-compatible servers: Azure OpenAI, Ollama, vLLM, LM Studio, OpenRouter). */
  baseUrl: string | undefined;
  apiKey: string | undefined;
  model: string;
  /** Per model request. */
  timeoutMs: number;
  /** Retries with backoff on 429, 5xx and connection failures. */
  maxRetries: number;
  maxOutputTokens: number;
  /** Model turns per run before the agent wraps up. */
  maxSteps: number;
  toolTimeoutMs: number;
  /** Rows a run_sql call returns to the model and keeps for downloads. */
  rowLimit: number;
  /**
   * Interval of SSE keep-alive comments. It also times run ownership (agent/runs/run-liveness.ts): a
   * run whose replica died is failed within it, so a follower's stream ends within about one keep-alive.
   */
  keepAliveMs: number;
  /** Prices: credits per 1,000 input tokens, per 1,000 output tokens, and per warehouse query. */
  credits: { perKInputTokens: number; perKOutputTokens: number; perQuery: number };
}

const DEFAULT_MODELS = { offline: 'sextant-offline-1', openai: 'gpt-4o-mini', anthropic: 'claude-sonnet-4-5' } as const;

const envSchema = z.object({
  SEXTANT_PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  SEXTANT_HOST: z.string().min(1).default('127.0.0.1'),
  SEXTANT_BASE_URL: z.string().url().optional(),
  SEXTANT_DATA_DIR: z.string().min(1).default('.sextant-data'),
  // The message never repeats the value: it holds a password.
  SEXTANT_DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\/[^\s]+$/, 'must be a postgres:// or postgresql:// URL').optional(),
  SEXTANT_DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
  SEXTANT_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SEXTANT_SEED_DEMO: z.enum(['true', 'false', '1', '0']).default('true'),
  SEXTANT_CORS_ORIGINS: z.string().default(''),
  SEXTANT_BODY_LIMIT: z.coerce.number().int().min(1024).default(1024 * 1024),
  SEXTANT_UPLOAD_LIMIT: z.coerce.number().int().min(1024).default(50 * 1024 * 1024),
  SEXTANT_UPLOAD_CHAT_LIMIT: z.coerce.number().int().min(1024).default(250 * 1024 * 1024),
  SEXTANT_TRUST_PROXY: z.enum(['true', 'false', '1', '0']).default('false'),
  SEXTANT_TRUSTED_PROXIES: z.string().optional(),
  SEXTANT_SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(10_000),
  SEXTANT_CLI_LOGIN_TTL_SECONDS: z.coerce.number().int().min(60).max(3600).default(600),
  SEXTANT_CLI_HELP_PER_HOUR: z.coerce.number().int().min(1).max(10_000).default(30),
  SEXTANT_SMTP_URL: z.string().url().optional(),
  SEXTANT_SMTP_HOST: z.string().min(1).optional(),
  SEXTANT_SMTP_PORT: z.coerce.number().int().min(1).max(65535).default(587),
  SEXTANT_MAIL_FROM: z.string().min(3).default('Sextant <no-reply@localhost>'),
  SEXTANT_MAIL_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(1).max(10_000).default(5),
  SEXTANT_MAIL_PER_CLIENT_PER_HOUR: z.coerce.number().int().min(1).max(1_000_000).default(30),
  SEXTANT_INVITATIONS_PER_DAY: z.coerce.number().int().min(1).max(100_000).default(50),
  SEXTANT_EMBEDDED_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(900),
  SEXTANT_BCRYPT_COST: z.coerce.number().int().min(4).max(15).default(10),
  SEXTANT_QUERY_ROW_LIMIT: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  SEXTANT_QUERY_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000),
  SEXTANT_QUERY_PROCESSES: z.coerce.number().int().min(1).max(256).default(4),
  SEXTANT_QUERY_MEMORY_MB: z.coerce.number().int().min(128).max(1_048_576).default(1024),
  SEXTANT_QUERY_IDLE_PROCESSES: z.coerce.number().int().min(0).max(256).default(2),
  SEXTANT_QUERY_MAX_RECURSION: z.coerce.number().int().min(1).max(4_294_967_295).default(DEFAULT_MAX_RECURSION),
  SEXTANT_WAREHOUSE_ROOTS: z.string().optional(),
  SEXTANT_DEMO_WAREHOUSE_ORDERS: z.coerce.number().int().min(100).max(10_000_000).default(120_000),
  SEXTANT_LLM_PROVIDER: z.enum(['offline', 'openai', 'anthropic']).default('offline'),
  SEXTANT_LLM_BASE_URL: z.string().url().optional(),
  SEXTANT_LLM_API_KEY: z.string().min(1).optional(),
  SEXTANT_LLM_MODEL: z.string().min(1).optional(),
  SEXTANT_LLM_TIMEOUT_MS: z.coerce.number().int().min(100).default(120_000),
  SEXTANT_LLM_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(3),
  SEXTANT_LLM_MAX_OUTPUT_TOKENS: z.coerce.number().int().min(16).default(4096),
  SEXTANT_AGENT_MAX_STEPS: z.coerce.number().int().min(1).max(100).default(12),
  SEXTANT_AGENT_TOOL_TIMEOUT_MS: z.coerce.number().int().min(10).default(60_000),
  SEXTANT_AGENT_ROW_LIMIT: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  SEXTANT_SSE_KEEPALIVE_MS: z.coerce.number().int().min(10).default(15_000),
  SEXTANT_CREDITS_PER_1K_INPUT_TOKENS: z.coerce.number().min(0).default(0.01),
  SEXTANT_CREDITS_PER_1K_OUTPUT_TOKENS: z.coerce.number().min(0).default(0.03),
  SEXTANT_CREDITS_PER_QUERY: z.coerce.number().min(0).default(0.1),
  SEXTANT_EVAL_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  SEXTANT_EVAL_QUESTION_TIMEOUT_MS: z.coerce.number().int().min(1000).default(300_000),
  SEXTANT_SUBSCRIPTION_TICK_MS: z.coerce.number().int().min(0).default(15_000),
  SEXTANT_TEST_SUBSCRIPTION_CLOCK_FILE: z.string().min(1).optional(),
  SEXTANT_JWT_SECRET: z.string().min(32).optional(),
  SEXTANT_ENCRYPTION_KEY: z.string().optional(),
  SEXTANT_COOKIE_KEYS: z.string().optional(),
  SEXTANT_REDIS_URL: z.string().url().optional(),
  SEXTANT_REDIS_PREFIX: z.string().regex(/^[\w.-]{1,64}$/).default('sextant'),
  SEXTANT_METRICS: z.enum(['true', 'false', '1', '0']).default('true'),
  SEXTANT_METRICS_TOKEN: z.string().min(16).optional(),
  SEXTANT_METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  SEXTANT_METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  SEXTANT_DNS_SERVERS: z.string().optional().refine((v) => (v ?? '').split(',').map((s) => s.trim()).filter(Boolean).every(isDnsServer), 'must be comma-separated IP addresses, each with an optional :port'),
  SEXTANT_OTEL_ENDPOINT: z.string().url().optional(),
  SEXTANT_OUTBOUND_ALLOW: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean))
    .refine((list) => list.every((s) => isAddressOrCidr(s) || /^(?=.*[a-z])[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?$/i.test(s)), 'each entry must be a host name, an IP address or a CIDR'),
});

const truthy = (v: string) => v === 'true' || v === '1';

/**
 * The warehouse roots, resolved and deduplicated. Nested roots are refused: an organization's folder
 * in the inner root (`<outer>/<org_a>/<org_b>/`) would lie inside another organization's folder.
 */
function warehouseRoots(value: string, dataDir: string): string[] {
  const roots = [...new Set(value.split(',').map((p) => p.trim()).filter(Boolean).map((p) => resolve(dataDir, p)))];
  for (const inner of roots) {
    const outer = roots.find((r) => r !== inner && (inner + sep).startsWith(r.endsWith(sep) ? r : r + sep));
    if (outer) throw new Error(`Invalid configuration:\n  SEXTANT_WAREHOUSE_ROOTS: ${inner} lies inside ${outer}; warehouse roots must not nest`);
  }
  return roots;
}

/** Reads and validates the environment; throws with every bad variable named. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  const dataDir = resolve(e.SEXTANT_DATA_DIR);
  const warnings: string[] = [];
  const secrets = loadSecrets(dataDir, e, warnings);
  const baseUrl = (e.SEXTANT_BASE_URL ?? `http://${e.SEXTANT_HOST}:${e.SEXTANT_PORT}`).replace(/\/+$/, '');
  if (!baseUrl.startsWith('https://') && !/^http:\/\/(127\.|localhost|\[::1\])/.test(baseUrl)) {
    warnings.push(`SEXTANT_BASE_URL ${baseUrl} is not https: cookies and tokens travel in clear text`);
  }
  if (e.SEXTANT_BCRYPT_COST < 10) warnings.push(`SEXTANT_BCRYPT_COST ${e.SEXTANT_BCRYPT_COST} is below 10: passwords and recovery codes are cheap to brute-force offline`);
  return {
    version: packageVersion(),
    port: e.SEXTANT_PORT,
    host: e.SEXTANT_HOST,
    baseUrl,
    dataDir,
    databaseUrl: e.SEXTANT_DATABASE_URL,
    databaseConnectTimeoutMs: e.SEXTANT_DATABASE_CONNECT_TIMEOUT_MS,
    logLevel: e.SEXTANT_LOG_LEVEL,
    seedDemo: truthy(e.SEXTANT_SEED_DEMO),
    corsOrigins: e.SEXTANT_CORS_ORIGINS.split(',').map((s) => s.trim()).filter(Boolean),
    bodyLimitBytes: e.SEXTANT_BODY_LIMIT,
    uploadLimitBytes: e.SEXTANT_UPLOAD_LIMIT,
    uploadChatLimitBytes: e.SEXTANT_UPLOAD_CHAT_LIMIT,
    trustProxy: truthy(e.SEXTANT_TRUST_PROXY) || e.SEXTANT_TRUSTED_PROXIES !== undefined,
    trustedProxies: trustedProxies(e),
    shutdownGraceMs: e.SEXTANT_SHUTDOWN_GRACE_MS,
    cliLoginTtlSeconds: e.SEXTANT_CLI_LOGIN_TTL_SECONDS,
    cliHelpPerHour: e.SEXTANT_CLI_HELP_PER_HOUR,
    embeddedTokenTtlSeconds: e.SEXTANT_EMBEDDED_TOKEN_TTL_SECONDS,
    mail: {
      smtpUrl: e.SEXTANT_SMTP_URL ?? (e.SEXTANT_SMTP_HOST ? `smtp://${e.SEXTANT_SMTP_HOST}:${e.SEXTANT_SMTP_PORT}` : undefined),
      from: e.SEXTANT_MAIL_FROM,
      perAddressPerHour: e.SEXTANT_MAIL_PER_ADDRESS_PER_HOUR,
      perClientPerHour: e.SEXTANT_MAIL_PER_CLIENT_PER_HOUR,
      invitationsPerDay: e.SEXTANT_INVITATIONS_PER_DAY,
    },
    bcryptCost: e.SEXTANT_BCRYPT_COST,
    data: {
      queryRowLimit: e.SEXTANT_QUERY_ROW_LIMIT,
      queryTimeoutMs: e.SEXTANT_QUERY_TIMEOUT_MS,
      queryProcesses: e.SEXTANT_QUERY_PROCESSES,
      queryMemoryMb: e.SEXTANT_QUERY_MEMORY_MB,
      queryIdleProcesses: e.SEXTANT_QUERY_IDLE_PROCESSES,
      queryMaxRecursion: e.SEXTANT_QUERY_MAX_RECURSION,
      warehouseRoots: warehouseRoots(e.SEXTANT_WAREHOUSE_ROOTS ?? join(dataDir, 'warehouse'), dataDir),
      demoWarehouseOrders: e.SEXTANT_DEMO_WAREHOUSE_ORDERS,
    },
    secrets,
    agent: agentConfig(e, warnings),
    evaluations: { concurrency: e.SEXTANT_EVAL_CONCURRENCY, questionTimeoutMs: e.SEXTANT_EVAL_QUESTION_TIMEOUT_MS },
    subscriptionTickMs: e.SEXTANT_SUBSCRIPTION_TICK_MS,
    subscriptionClockFile: testClockFile(e.SEXTANT_TEST_SUBSCRIPTION_CLOCK_FILE, warnings),
    outboundAllow: e.SEXTANT_OUTBOUND_ALLOW,
    ops: { redisUrl: e.SEXTANT_REDIS_URL, redisPrefix: e.SEXTANT_REDIS_PREFIX, metrics: truthy(e.SEXTANT_METRICS), metricsToken: e.SEXTANT_METRICS_TOKEN, metricsPort: e.SEXTANT_METRICS_PORT, metricsHost: e.SEXTANT_METRICS_HOST, otelEndpoint: e.SEXTANT_OTEL_ENDPOINT },
    dnsServers: dnsServers(e.SEXTANT_DNS_SERVERS),
    warnings,
  };
}

/** The test clock's file, with a loud warning: a production server must never run on it. */
function testClockFile(file: string | undefined, warnings: string[]): string | undefined {
  if (file !== undefined) warnings.push(`SEXTANT_TEST_SUBSCRIPTION_CLOCK_FILE is set: the subscription scheduler reads its time from ${file} (for tests only)`);
  return file;
}

/** SEXTANT_TRUSTED_PROXIES (which implies SEXTANT_TRUST_PROXY), else one hop when the proxy is trusted. */
function trustedProxies(e: z.infer<typeof envSchema>): TrustedProxies | undefined {
  if (e.SEXTANT_TRUSTED_PROXIES === undefined) return truthy(e.SEXTANT_TRUST_PROXY) ? { hops: 1 } : undefined;
  try {
    return parseTrustedProxies(e.SEXTANT_TRUSTED_PROXIES);
  } catch (err) {
    throw new Error(`Invalid configuration:\n  SEXTANT_TRUSTED_PROXIES: ${(err as Error).message}`);
  }
}

/** `ip`, `ip:port`, `[ipv6]:port`: what node:dns's setServers takes. */
function isDnsServer(s: string): boolean {
  const m = /^\[([^\]]+)\]:(\d{1,5})$/.exec(s) ?? /^([\d.]+):(\d{1,5})$/.exec(s);
  if (m) return isIP(m[1]!) !== 0 && Number(m[2]) >= 1 && Number(m[2]) <= 65535;
  return isIP(s) !== 0;
}

/** The comma-separated DNS servers of SEXTANT_DNS_SERVERS, or undefined for the system's. */
function dnsServers(value: string | undefined): string[] | undefined {
  const servers = (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  return servers.length > 0 ? servers : undefined;
}

function agentConfig(e: z.infer<typeof envSchema>, warnings: string[]): AgentConfig {
  if (e.SEXTANT_LLM_PROVIDER !== 'offline' && !e.SEXTANT_LLM_API_KEY && !(e.SEXTANT_LLM_PROVIDER === 'openai' && e.SEXTANT_LLM_BASE_URL)) {
    warnings.push(`SEXTANT_LLM_PROVIDER=${e.SEXTANT_LLM_PROVIDER} without SEXTANT_LLM_API_KEY: every answer will fail with LLM_KEY_MISSING`);
  }
  return {
    provider: e.SEXTANT_LLM_PROVIDER,
    baseUrl: e.SEXTANT_LLM_BASE_URL,
    apiKey: e.SEXTANT_LLM_API_KEY,
    model: e.SEXTANT_LLM_MODEL ?? DEFAULT_MODELS[e.SEXTANT_LLM_PROVIDER],
    timeoutMs: e.SEXTANT_LLM_TIMEOUT_MS,
    maxRetries: e.SEXTANT_LLM_MAX_RETRIES,
    maxOutputTokens: e.SEXTANT_LLM_MAX_OUTPUT_TOKENS,
    maxSteps: e.SEXTANT_AGENT_MAX_STEPS,
    toolTimeoutMs: e.SEXTANT_AGENT_TOOL_TIMEOUT_MS,
    rowLimit: e.SEXTANT_AGENT_ROW_LIMIT,
    keepAliveMs: e.SEXTANT_SSE_KEEPALIVE_MS,
    credits: {
      perKInputTokens: e.SEXTANT_CREDITS_PER_1K_INPUT_TOKENS,
      perKOutputTokens: e.SEXTANT_CREDITS_PER_1K_OUTPUT_TOKENS,
      perQuery: e.SEXTANT_CREDITS_PER_QUERY,
    },
  };
}

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}
