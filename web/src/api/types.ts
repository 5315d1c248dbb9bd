// Shorthands for request and response bodies of the generated API types.
import type { paths } from './openapi';

type Method = 'get' | 'post' | 'put' | 'delete' | 'patch';
type Op<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
type Responses<P extends keyof paths, M extends Method> = Op<P, M> extends { responses: infer R } ? R : never;

/** The JSON body of the success answer (200, 201 or 202) of an operation. */
export type ResponseOf<P extends keyof paths, M extends Method> = Json<
  Responses<P, M>[Extract<keyof Responses<P, M>, 200 | 201 | 202>]
>;

/** The JSON request body of an operation. */
export type BodyOf<P extends keyof paths, M extends Method> = Op<P, M> extends { requestBody?: infer B } ? Json<NonNullable<B>> : never;
