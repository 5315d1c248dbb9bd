// Token domain: general API tokens, MCP and CLI tokens, and the CLI device sign-in.
export type { TokenDeps } from './deps.ts';
export type { TokenView, CreatedToken } from './token-view.ts';
export { toTokenView } from './token-view.ts';
export { TokenNotFound, TokenUserNotFound, CliLoginNotFound, CliLoginExpired, CliLoginAlreadyDecided, CliLoginDenied } from './errors.ts';
export { createApiToken } from './create-api-token.ts';
export type { NewApiToken } from './create-api-token.ts';
export { listOwnTokens, listUserTokens } from './list-tokens.ts';
export { revokeOwnToken, revokeUserToken, revokeTokensOfKind } from './revoke-token.ts';
export type { RevokedToken } from './revoke-token.ts';
export { createMcpToken, createCliToken, MCP_TOKEN_TTL_MS } from './create-exclusive-token.ts';
export { startCliLogin } from './cli-login/start-cli-login.ts';
export type { StartedCliLogin } from './cli-login/start-cli-login.ts';
export { getCliLoginInfo, completeCliLogin, denyCliLogin } from './cli-login/decide-cli-login.ts';
export type { CliLoginInfo } from './cli-login/decide-cli-login.ts';
export { pollCliLogin } from './cli-login/poll-cli-login.ts';
export type { CliLoginPoll } from './cli-login/poll-cli-login.ts';
export { CLI_POLL_INTERVAL_SECONDS, expireCliLogins } from './cli-login/cli-login-store.ts';
export type { CliLoginDeps, CliLoginStatus } from './cli-login/cli-login-store.ts';
