export { constantTimeEqual } from './compare.ts';
export { newSecret, hashSecret, newId } from './tokens.ts';
export { hashPassword, verifyPassword, needsRehash, dummyPasswordHash, hashShortSecret, verifyShortSecret } from './password.ts';
export { createSecretBox } from './secret-box.ts';
export type { SecretBox } from './secret-box.ts';
export { consumeOnce } from './single-use.ts';
export { csrfToken, checkCsrfToken } from './csrf.ts';
export { parseAddress, parseTrustedProxies, proxyTrust } from './proxy-trust.ts';
export type { ProxyTrust, TrustedProxies } from './proxy-trust.ts';
