// The endpoints mounted beside the route tables, for the OpenAPI document: the remote MCP endpoint
// (mount-mcp.ts) and the OAuth 2.1 authorization server MCP clients sign in with (oidc-provider,
// mount-oauth.ts). Their own code validates their requests, so they are described here by hand.
import { MCP_PATH } from './mcp/mount-mcp.ts';
import { OAUTH_PATH } from '../auth/oauth/create-provider.ts';

type Json = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Json, example?: unknown) => ({ 'application/json': { schema, ...(example !== undefined ? { example } : {}) } });
const form = (schema: Json) => ({ 'application/x-www-form-urlencoded': { schema } });
const oauthError = (description: string) => ({ description, content: json(ref('OAuthError')) });
const mcpRefusal = (description: string) => ({
  description: `${description}. \`WWW-Authenticate: Bearer resource_metadata="…/.well-known/oauth-protected-resource${MCP_PATH}", scope="mcp:tools"\` tells an MCP client where to sign in.`,
  headers: { 'WWW-Authenticate': { description: 'The Bearer challenge (RFC 9728 resource metadata and scope)', schema: { type: 'string' } } },
  content: json(ref('ErrorResponse')),
});
const str = (description: string) => ({ type: 'string', description });

const SCHEMAS: Record<string, Json> = {
  Body_mcp: {
    title: 'Body_mcp',
    type: 'object',
    description: 'One JSON-RPC 2.0 request or notification of the Model Context Protocol (revision 2026-07-28, or a 2025-era client served statelessly).',
    required: ['jsonrpc', 'method'],
    properties: { jsonrpc: { const: '2.0' }, id: { type: ['string', 'integer'] }, method: str('e.g. `tools/list`, `tools/call`, `server/discover`'), params: { type: 'object' } },
  },
  JsonRpcResponse: {
    type: 'object',
    required: ['jsonrpc'],
    properties: { jsonrpc: { const: '2.0' }, id: { type: ['string', 'integer', 'null'] }, result: { type: 'object' }, error: { type: 'object', properties: { code: { type: 'integer' }, message: { type: 'string' } } } },
  },
  Body_oauth_token: {
    title: 'Body_oauth_token',
    type: 'object',
    required: ['grant_type', 'client_id'],
    properties: {
      grant_type: { enum: ['authorization_code', 'refresh_token'] },
      client_id: { type: 'string' },
      code: str('authorization_code: the code from the redirect'),
      redirect_uri: str('authorization_code: the same as in the authorization request'),
      code_verifier: str('authorization_code: the PKCE verifier'),
      refresh_token: str('refresh_token: the last refresh token received (each is used once)'),
      resource: str('RFC 8707: the MCP endpoint URL'),
    },
  },
  Body_oauth_register: {
    title: 'Body_oauth_register',
    type: 'object',
    required: ['redirect_uris'],
    properties: { redirect_uris: { type: 'array', items: { type: 'string' } }, client_name: { type: 'string' }, application_type: { enum: ['web', 'native'] }, scope: str('e.g. `mcp:tools`') },
  },
  Body_oauth_revoke: {
    title: 'Body_oauth_revoke',
    type: 'object',
    required: ['token', 'client_id'],
    properties: { token: { type: 'string' }, token_type_hint: { enum: ['access_token', 'refresh_token'] }, client_id: { type: 'string' } },
  },
  OAuthError: { type: 'object', required: ['error'], properties: { error: str('OAuth error code, e.g. `invalid_grant`'), error_description: { type: 'string' } } },
  AuthorizationServerMetadata: {
    type: 'object',
    description: 'RFC 8414 / OpenID Connect discovery metadata',
    required: ['issuer', 'authorization_endpoint', 'token_endpoint'],
    properties: { issuer: { type: 'string' }, authorization_endpoint: { type: 'string' }, token_endpoint: { type: 'string' }, registration_endpoint: { type: 'string' }, code_challenge_methods_supported: { type: 'array', items: { type: 'string' } } },
  },
  TokenResponse: {
    type: 'object',
    required: ['access_token', 'token_type', 'expires_in'],
    properties: { access_token: str('Opaque; send as `Authorization: Bearer` to /ai/mcp'), token_type: { const: 'Bearer' }, expires_in: { type: 'integer' }, refresh_token: str('Rotates on every use'), scope: { type: 'string' } },
  },
};

const tags = ['mcp'];
const metadata = {
  tags,
  summary: 'Authorization server metadata (discovery)',
  security: [],
  responses: { '200': { description: 'The metadata', content: json(ref('AuthorizationServerMetadata')) } },
};

const PATHS: Record<string, Record<string, Json>> = {
  [MCP_PATH]: {
    post: {
      operationId: 'mcp',
      tags,
      summary: 'The remote MCP endpoint (Streamable HTTP, stateless): one JSON-RPC message per POST',
      description:
        'Send `Accept: application/json, text/event-stream` and `Content-Type: application/json`. Requests answer one JSON object or a request-scoped event stream; notifications answer 202. ' +
        'Credentials: an OAuth access token from this service (`Authorization: Bearer`, audience `/ai/mcp`, scope `mcp:tools`) or an MCP token (`X-API-KEY`); never in the URL. GET and DELETE answer 405 (no sessions, no standalone stream).',
      security: [{ McpOAuth: ['mcp:tools'] }, { McpToken: [] }],
      requestBody: { required: true, content: json(ref('Body_mcp'), { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }) },
      responses: {
        '200': { description: 'The JSON-RPC response, or an event stream ending with it', content: { ...json(ref('JsonRpcResponse')), 'text/event-stream': { schema: { type: 'string' } } } },
        '202': { description: 'A notification or response was accepted' },
        '400': { description: 'Not a JSON-RPC message, or an unsupported protocol revision', content: json(ref('JsonRpcResponse')) },
        '401': mcpRefusal('No credential, or an invalid or expired one'),
        '403': mcpRefusal('A token without MCP access or scope, or a browser Origin the service does not know'),
        '413': { description: 'Body over 4 MiB', content: json(ref('JsonRpcResponse')) },
        '415': { description: 'Content-Type is not application/json', content: json(ref('JsonRpcResponse')) },
      },
    },
  },
  [`${OAUTH_PATH}/.well-known/openid-configuration`]: { get: { ...metadata, operationId: 'oauth_metadata' } },
  [`/.well-known/oauth-authorization-server${OAUTH_PATH}`]: { get: { ...metadata, operationId: 'oauth_metadata_rfc8414', summary: 'Authorization server metadata at its RFC 8414 address' } },
  [`${OAUTH_PATH}/auth`]: {
    get: {
      operationId: 'oauth_authorize',
      tags,
      summary: 'Authorization endpoint: signs the user in, asks for consent, then redirects back with a code',
      description: 'OAuth 2.1 authorization code flow with PKCE (S256 required). Redirect URIs must be HTTPS, loopback HTTP or (native clients) a custom scheme, matched exactly.',
      security: [],
      parameters: [
        ...['client_id', 'redirect_uri', 'code_challenge', 'state'].map((name) => ({ name, in: 'query', required: name !== 'state', schema: { type: 'string' } })),
        { name: 'response_type', in: 'query', required: true, schema: { const: 'code' } },
        { name: 'code_challenge_method', in: 'query', required: true, schema: { const: 'S256' } },
        { name: 'scope', in: 'query', required: false, schema: { type: 'string', example: 'mcp:tools' } },
        { name: 'resource', in: 'query', required: false, description: 'RFC 8707: the MCP endpoint URL', schema: { type: 'string' } },
      ],
      responses: { '303': { description: 'To the sign-in and consent pages (`/interaction/{uid}`), then to `redirect_uri` with `code` and `state`' }, '400': { description: 'An HTML page naming the error (bad client, redirect URI or PKCE)' } },
    },
  },
  [`${OAUTH_PATH}/token`]: {
    post: {
      operationId: 'oauth_token',
      tags,
      summary: 'Token endpoint: redeems a code (with its PKCE verifier) or a refresh token',
      security: [],
      requestBody: {
        required: true,
        content: form(ref('Body_oauth_token')),
      },
      responses: { '200': { description: 'Tokens', content: json(ref('TokenResponse')) }, '400': oauthError('`invalid_grant` (used, expired or foreign code or refresh token), `invalid_request`, `invalid_target`') },
    },
  },
  [`${OAUTH_PATH}/reg`]: {
    post: {
      operationId: 'oauth_register',
      tags,
      summary: 'Dynamic client registration (RFC 7591), open, limited per client address',
      security: [],
      requestBody: { required: true, content: json(ref('Body_oauth_register')) },
      responses: {
        '201': { description: 'The registered client (`client_id`)', content: json({ type: 'object', required: ['client_id'], properties: { client_id: { type: 'string' } } }) },
        '400': oauthError('`invalid_client_metadata` or `invalid_redirect_uri`'),
        '429': { description: 'Too many registrations from this address; `Retry-After` says when to try again', content: json(ref('ErrorResponse')) },
      },
    },
  },
  [`${OAUTH_PATH}/token/revocation`]: {
    post: {
      operationId: 'oauth_revoke',
      tags,
      summary: "Revokes one of the client's own tokens (RFC 7009)",
      security: [],
      requestBody: { required: true, content: form(ref('Body_oauth_revoke')) },
      responses: { '200': { description: 'Revoked (or unknown: the answer is the same)' }, '400': oauthError('`invalid_request` or `invalid_client`') },
    },
  },
  [`${OAUTH_PATH}/jwks`]: {
    get: { operationId: 'oauth_jwks', tags, summary: "The authorization server's public signing keys", security: [], responses: { '200': { description: 'A JSON Web Key Set', content: json({ type: 'object', properties: { keys: { type: 'array', items: { type: 'object' } } } }) } } },
  },
};

/** The mounted endpoints' paths, schemas and security schemes, for the document at `baseUrl`. */
export function mountedApi(baseUrl: string) {
  const securitySchemes = {
    McpOAuth: {
      type: 'oauth2',
      description: 'OAuth 2.1 for MCP clients: discovered from /.well-known/oauth-protected-resource/ai/mcp; PKCE S256; audience /ai/mcp',
      flows: { authorizationCode: { authorizationUrl: `${baseUrl}${OAUTH_PATH}/auth`, tokenUrl: `${baseUrl}${OAUTH_PATH}/token`, refreshUrl: `${baseUrl}${OAUTH_PATH}/token`, scopes: { 'mcp:tools': 'Use the MCP tools as the signed-in user' } } },
    },
    McpToken: { type: 'apiKey', in: 'header', name: 'X-API-KEY', description: 'An MCP token (Settings, or POST /api/auth/user/tokens)' },
  };
  return { paths: PATHS, schemas: SCHEMAS, securitySchemes };
}

/** Method and path of every mounted operation: served, though by no route table. */
export const MOUNTED_OPERATIONS = Object.entries(PATHS).flatMap(([path, ops]) => Object.keys(ops).map((method) => ({ method: method.toUpperCase(), path })));
