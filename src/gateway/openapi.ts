// The OpenAPI 3.1 document, generated from the same route definitions and zod schemas that validate
// requests, so the two cannot drift; plus a readable reference page rendered from it.
import { z } from 'zod';
import { AgentEventSchema } from '../agent/index.ts';
import { EXAMPLES } from './openapi-examples.ts';
import { mountedApi } from './openapi-mounted.ts';
import { renderReference } from './reference-page.ts';
import { route, type RouteDef } from './route.ts';
import type { Services } from '../compose/services.ts';

type JsonSchema = Record<string, unknown>;

const SECURITY = [{ APIKeyHeader: [] }, { APIKeyCookie: [] }, { OAuth2PasswordBearer: [] }];

const toSchema = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  return rest;
};

// Built with the document, on its first request: the agent events' JSON schema alone took ~15 ms of
// every start when this was built with the module (issue 38).
const baseSchemas = (): Record<string, JsonSchema> => ({
  ValidationError: {
    type: 'object',
    title: 'ValidationError',
    required: ['loc', 'msg', 'type'],
    properties: {
      loc: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'integer' }] }, title: 'Location' },
      msg: { type: 'string', title: 'Message' },
      type: { type: 'string', title: 'Error Type' },
    },
  },
  HTTPValidationError: {
    type: 'object',
    title: 'HTTPValidationError',
    description: 'Every 422: the request schema failed (`code` VALIDATION_FAILED, one entry per field) or a rule refused the request as a whole (one entry with an empty `loc`, `code` names the rule).',
    required: ['detail', 'code'],
    properties: {
      detail: { type: 'array', items: { $ref: '#/components/schemas/ValidationError' }, title: 'Detail' },
      code: { type: 'string', description: 'Stable machine-readable code' },
      data: { type: 'object', description: 'Details for machines, when the rule gives some' },
    },
  },
  ErrorResponse: {
    type: 'object',
    title: 'ErrorResponse',
    description: 'Every error answer except 422 (HTTPValidationError).',
    required: ['detail', 'code'],
    properties: {
      detail: { type: 'string' },
      code: { type: 'string', description: 'Stable machine-readable code' },
      data: { type: 'object', description: 'Details for machines, when the error gives some' },
    },
  },
  AgentEvent: {
    title: 'AgentEvent',
    description: 'The `data` of one streamed event (its `event` line names the `type`; its `id` line the position in the run, for `Last-Event-ID`).',
    ...toSchema(AgentEventSchema, 'output'),
  },
});

/** Operations whose event stream carries agent events. */
const AGENT_EVENT_STREAMS = new Set(['agentic_stream', 'agentic_subscribe']);

/** Builds the OpenAPI document for a list of routes, plus the endpoints mounted beside them. */
export function buildOpenApi(routes: RouteDef[], baseUrl: string, version: string): JsonSchema {
  const mounted = mountedApi(baseUrl);
  const paths: Record<string, Record<string, unknown>> = { ...mounted.paths };
  const schemas: Record<string, JsonSchema> = { ...baseSchemas(), ...mounted.schemas };
  for (const def of routes) (paths[def.path] ??= {})[def.method.toLowerCase()] = operationOf(def, schemas);
  return {
    openapi: '3.1.0',
    info: { title: 'Sextant', version: '1.0.0', description: `Sextant data-analysis assistant API (service ${version}).` },
    servers: [{ url: baseUrl }],
    paths,
    components: {
      schemas,
      securitySchemes: {
        APIKeyHeader: { type: 'apiKey', in: 'header', name: 'API-KEY' },
        APIKeyCookie: { type: 'apiKey', in: 'cookie', name: 'sextant_session' },
        OAuth2PasswordBearer: { type: 'oauth2', flows: { password: { scopes: {}, tokenUrl: 'api/auth/token' } } },
        ...mounted.securitySchemes,
      },
    },
  };
}

/** One route as an operation; its request body goes into `schemas` as Body_<operationId>. */
function operationOf(def: RouteDef, schemas: Record<string, JsonSchema>): Record<string, unknown> {
  const example = EXAMPLES[def.operationId];
  const op: Record<string, unknown> = { operationId: def.operationId, summary: def.summary, ...(def.description ? { description: def.description } : {}), tags: def.tags };
  const parameters: Record<string, unknown>[] = [...paramsOf(def.params, 'path'), ...paramsOf(def.query, 'query')];
  if (def.conditional) parameters.push(IF_MATCH);
  if (parameters.length > 0) op['parameters'] = parameters;
  if (def.body) {
    const name = `Body_${def.operationId}`;
    schemas[name] = { title: name, ...toSchema(def.body, 'input') };
    const media = def.bodyType === 'multipart' ? ['multipart/form-data'] : def.bodyType === 'form' ? ['application/x-www-form-urlencoded'] : def.bodyType === 'json_or_form' ? ['application/json', 'application/x-www-form-urlencoded'] : def.bodyType === 'json_or_multipart' ? ['application/json', 'multipart/form-data'] : ['application/json'];
    const withExample = (m: string) => (m === 'application/json' && example?.request !== undefined ? { example: example.request } : {});
    op['requestBody'] = { required: true, content: Object.fromEntries(media.map((m) => [m, { schema: { $ref: `#/components/schemas/${name}` }, ...withExample(m) }])) };
  }
  // Public routes say so (`security: []`); optional credentials add the anonymous alternative.
  op['security'] = def.auth === 'user' ? SECURITY : def.auth === 'optional' ? [{}, ...SECURITY] : [];
  op['responses'] = responsesOf(def, example?.response);
  return op;
}

function responsesOf(def: RouteDef, example: unknown): Record<string, unknown> {
  const withExample = example !== undefined ? { example } : {};
  const ok = def.produces
    ? { content: { [def.produces]: { schema: AGENT_EVENT_STREAMS.has(def.operationId) ? EVENT_STREAM : { type: 'string' }, ...withExample } } }
    : { content: { 'application/json': { schema: def.response ? toSchema(def.response, 'output') : {}, ...withExample } } };
  const etag = def.etag ? { headers: { ETag: { description: 'Version of the resource; send it back in If-Match to save only over this version', schema: { type: 'string' } } } } : {};
  const responses: Record<string, unknown> = { [String(def.status ?? 200)]: { description: 'Successful Response', ...ok, ...etag } };
  if (def.conditional) {
    responses['409'] = errorResponse('Saved without If-Match while someone else changed the same fields: reload and apply the change again (`data.fields`, `data.current_version`)');
    responses['412'] = errorResponse('If-Match names another version than the current one (`data.current_version`)');
  }
  if (def.params || def.query || def.body) {
    responses['422'] = { description: 'Validation Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/HTTPValidationError' } } } };
  }
  if (def.auth === 'user') {
    responses['401'] = errorResponse('Missing or invalid credentials');
    if (def.role) responses['403'] = errorResponse(`Requires role ${def.role} or higher`);
  }
  for (const [status, why] of Object.entries(def.errors ?? {}) as [string, string][]) {
    const before = responses[status] as { description?: string } | undefined;
    // A route may say why it answers 422; the answer keeps its HTTPValidationError shape.
    if (status === '422' && before) responses[status] = { ...before, description: `${before.description}: ${why}` };
    else responses[status] = errorResponse(before?.description ? `${before.description}; ${why}` : why);
  }
  return responses;
}

/** A stream of server-sent events whose `data` lines are agent events. */
const EVENT_STREAM = {
  type: 'string',
  description:
    'Server-sent events: `retry`, then per agent event an `id` (increasing), an `event` (the type) and a `data` line (AgentEvent JSON), with keep-alive comments in between. ' +
    'The last event is `completed`. After a dropped connection, GET /api/agentic/subscribe/{chat_id} with `Last-Event-ID` resumes after the last event received.',
  contentMediaType: 'text/event-stream',
  contentSchema: { $ref: '#/components/schemas/AgentEvent' },
};

const IF_MATCH = {
  name: 'If-Match',
  in: 'header',
  required: false,
  schema: { type: 'string' },
  description:
    'The ETag (version) the change is based on. When the item has another version by then the request fails with 412 and the current version. ' +
    'Without it a save is based on the version current when it arrives, and merged field by field with a save that lands first (409 when both changed the same field).',
};

function errorResponse(description: string) {
  return { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } } };
}

function paramsOf(schema: z.ZodType | undefined, where: 'path' | 'query') {
  if (!schema) return [];
  const json = toSchema(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || (json.required ?? []).includes(name),
    schema: s,
    ...(typeof s['description'] === 'string' ? { description: s['description'] } : {}),
  }));
}

/** `/openapi.json` and `/docs`, documenting every other route. */
export function openApiRoutes(s: Services, allRoutes: () => RouteDef[]): RouteDef[] {
  let cached: JsonSchema | undefined;
  const doc = () => (cached ??= buildOpenApi(allRoutes(), s.config.baseUrl, s.config.version));
  return [
    route({ method: 'GET', path: '/openapi.json', operationId: 'openapi', summary: 'This OpenAPI document', tags: ['service'], auth: 'none', handler: () => doc() }),
    route({
      method: 'GET',
      path: '/docs',
      operationId: 'api_reference',
      summary: 'Readable API reference rendered from the OpenAPI document',
      tags: ['service'],
      auth: 'none',
      produces: 'text/html',
      handler: ({ ctx }) => {
        ctx.type = 'html';
        ctx.body = renderReference(doc());
      },
    }),
  ];
}
