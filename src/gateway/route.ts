// The shape of one route in a visible table: method, path, schemas, the credential it needs and the
// handler that calls the domain. The same definitions drive the router, validation and OpenAPI.
import type { Context } from 'koa';
import type { z } from 'zod';
import type { Principal, Role } from '../auth/index.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call a route:
 * - `none`: no credential is read (public endpoints);
 * - `optional`: a credential is used when present and valid;
 * - `user`: a REST credential (session, API or CLI token) is required.
 */
export type RouteAuth = 'none' | 'optional' | 'user';

/** Query-string credentials a route accepts besides the headers and cookie (interface part 5). */
export type QueryCredential = 'api_token' | 'token';

type AnySchema = z.ZodType;

export type BodyType = 'json' | 'form' | 'json_or_form' | 'multipart' | 'json_or_multipart';

export interface RouteInput<P, Q, B, Pr extends Principal | undefined = Principal | undefined> {
  params: P;
  query: Q;
  body: B;
  /** Always set when auth is `user` (the type says so); may be set when `optional`. */
  principal: Pr;
  /** The environment id of `X-Service-Environment`, undefined for production. */
  environmentId: string | undefined;
  /** The versions of `If-Match` (quotes and `W/` removed; `*` for any), on `conditional` routes. */
  ifMatch: string[] | '*' | undefined;
  ctx: Context;
}

interface RouteDefBase<P extends AnySchema, Q extends AnySchema, B extends AnySchema> {
  method: HttpMethod;
  /** OpenAPI-style path, e.g. `/api/environments/{id}`. */
  path: string;
  operationId: string;
  summary: string;
  /** Longer prose for the OpenAPI document, where the summary cannot say it all. */
  description?: string;
  tags: string[];
  /** Minimum role in the current organization. */
  role?: Role;
  /** Extra credential kinds accepted here (e.g. the MFA enrollment token on MFA setup). */
  alsoAccepts?: Principal['credential'][];
  queryCredential?: QueryCredential;
  params?: P;
  query?: Q;
  body?: B;
  /** How the body arrives; default json. */
  bodyType?: BodyType;
  /** `upload`: a JSON body may be as large as an upload (SEXTANT_UPLOAD_LIMIT) instead of SEXTANT_BODY_LIMIT. */
  bodyLimit?: 'upload';
  /** Response schema for the OpenAPI document; also documents the 200 body. */
  response?: AnySchema;
  /** Status of a successful response; default 200. */
  status?: number;
  /** Content type of a non-JSON response (CSV, SSE, HTML...), for the OpenAPI document. */
  produces?: string;
  /** The version of the resource in a successful response, sent as its `ETag`. */
  etag?: (result: never) => string | undefined;
  /** Honours `If-Match` (412 when it names another version; 409 for a conflicting concurrent edit). */
  conditional?: boolean;
  /** Failures the route answers beyond validation and the role check (404, 409, a domain rule's 403...), by
   *  status, for the OpenAPI document; added to what the status already says. */
  errors?: Partial<Record<number, string>>;
}

type Input<P extends AnySchema, Q extends AnySchema, B extends AnySchema, Pr extends Principal | undefined> = RouteInput<z.output<P>, z.output<Q>, z.output<B>, Pr>;

type UserRouteDef<P extends AnySchema, Q extends AnySchema, B extends AnySchema> = RouteDefBase<P, Q, B> & {
  auth: 'user';
  handler: (input: Input<P, Q, B, Principal>) => unknown;
};
type OpenRouteDef<P extends AnySchema, Q extends AnySchema, B extends AnySchema> = RouteDefBase<P, Q, B> & {
  auth: Exclude<RouteAuth, 'user'>;
  /** A role needs a principal: only `auth: 'user'` routes name one. */
  role?: never;
  handler: (input: Input<P, Q, B, Principal | undefined>) => unknown;
};

/**
 * A route in a table. On `auth: 'user'` the handler's `principal` is never undefined: the gateway
 * refuses the request (401) before the handler runs, so handlers assert nothing about it.
 */
export type RouteDef<P extends AnySchema = AnySchema, Q extends AnySchema = AnySchema, B extends AnySchema = AnySchema> = UserRouteDef<P, Q, B> | OpenRouteDef<P, Q, B>;

/** Declares a route; the generic parameters are inferred from the schemas. */
export function route<P extends AnySchema = z.ZodObject, Q extends AnySchema = z.ZodObject, B extends AnySchema = z.ZodUndefined>(def: UserRouteDef<P, Q, B>): RouteDef;
export function route<P extends AnySchema = z.ZodObject, Q extends AnySchema = z.ZodObject, B extends AnySchema = z.ZodUndefined>(def: OpenRouteDef<P, Q, B>): RouteDef;
export function route(def: RouteDef): RouteDef {
  return def as unknown as RouteDef;
}
