// Per-route body parsing (a global parser would also consume bodies meant for the OAuth provider
// and the MCP transport). Parser failures become the same 422/413 answers as everything else.
import type { Context, Middleware } from 'koa';
import { AppError, ValidationFailed } from '../errors.ts';
import { jsonBodyPlan, readJsonBody } from './json-body.ts';
import type { BodyType } from './route.ts';

export interface BodyLimits {
  jsonBytes: number;
  multipartFileBytes: number;
}

/** Builds the parser for a route's body type. */
export function bodyParser(type: BodyType, limits: BodyLimits) {
  // koa-body (with formidable and co-body) is loaded by the first request with a body, not at start:
  // ~6 MB of heap and ~0.1 s of CPU that an idle gateway does not need.
  let parser: Promise<Middleware> | undefined;
  const json = type === 'json' || type === 'json_or_form' || type === 'json_or_multipart';
  const load = () => import('koa-body').then(({ koaBody }) => koaBody({
    json,
    urlencoded: type === 'form' || type === 'json_or_form',
    multipart: type === 'multipart' || type === 'json_or_multipart',
    text: false,
    jsonStrict: false,
    jsonLimit: limits.jsonBytes,
    formLimit: limits.jsonBytes,
    formidable: { maxFileSize: limits.multipartFileBytes, maxFiles: 20, allowEmptyFiles: false, keepExtensions: true },
    onError: (err: Error) => {
      throw err;
    },
  }));
  return async function parseBody(ctx: Context): Promise<void> {
    // A UTF-8 JSON body without koa-body (json-body.ts).
    const plan = json ? jsonBodyPlan(ctx) : undefined;
    const parse = plan === undefined ? await (parser ??= load()) : undefined;
    try {
      if (parse) await parse(ctx, async () => {});
      else if (plan !== undefined) ctx.request.body = (await readJsonBody(ctx, plan, limits.jsonBytes)) as typeof ctx.request.body;
    } catch (err) {
      // formidable (multipart) reports its limits as `httpCode`, e.g. 413 for maxFileSize.
      const status = (err as { status?: number; httpCode?: number }).status ?? (err as { httpCode?: number }).httpCode;
      if (status === 413) throw new AppError('too_large', 'BODY_TOO_LARGE', 'Request body too large');
      if (status === 415) throw new AppError('bad_request', 'UNSUPPORTED_MEDIA_TYPE', 'Unsupported content type');
      throw new ValidationFailed([{ loc: ['body', 0], msg: 'JSON decode error', type: 'json_invalid' }]);
    }
  };
}
