// Typed failures of model providers. The agent turns them into `error` events; the codes are stable.
import { AppError } from '../../errors.ts';

export type LlmErrorCode = 'LLM_KEY_MISSING' | 'LLM_AUTH_FAILED' | 'LLM_RATE_LIMITED' | 'LLM_UNAVAILABLE' | 'LLM_TIMEOUT' | 'LLM_BAD_REQUEST' | 'LLM_FAILED';

const KIND: Record<LlmErrorCode, AppError['kind']> = {
  LLM_KEY_MISSING: 'unavailable',
  LLM_AUTH_FAILED: 'unavailable',
  LLM_RATE_LIMITED: 'rate_limited',
  LLM_UNAVAILABLE: 'unavailable',
  LLM_TIMEOUT: 'unavailable',
  LLM_BAD_REQUEST: 'bad_request',
  LLM_FAILED: 'unavailable',
};

/** A model provider failed; `status` is the provider's HTTP status when there was one. */
export class LlmError extends AppError {
  constructor(
    code: LlmErrorCode,
    message: string,
    readonly status?: number,
  ) {
    super(KIND[code], code, message, status === undefined ? undefined : { status });
  }
}

/** Maps an SDK error (OpenAI and Anthropic share the shape: status, name) to an LlmError. */
export function toLlmError(provider: string, err: unknown): LlmError {
  if (err instanceof LlmError) return err;
  const e = err as { status?: unknown; name?: unknown; message?: unknown };
  const status = typeof e?.status === 'number' ? e.status : undefined;
  // The OpenAI SDK leaves `name` as 'Error' on its connection errors; their class names tell them apart.
  const name = `${typeof e?.name === 'string' ? e.name : ''} ${(err as object | null)?.constructor?.name ?? ''}`;
  const detail = typeof e?.message === 'string' ? e.message.slice(0, 300) : String(err);
  if (status === 401 || status === 403) return new LlmError('LLM_AUTH_FAILED', `${provider} rejected the API key (HTTP ${status}); check SEXTANT_LLM_API_KEY`, status);
  if (status === 429) return new LlmError('LLM_RATE_LIMITED', `${provider} is rate limiting requests (retries exhausted)`, status);
  if (status !== undefined && status >= 500) return new LlmError('LLM_UNAVAILABLE', `${provider} failed with HTTP ${status} (retries exhausted)`, status);
  if (status !== undefined && status >= 400) return new LlmError('LLM_BAD_REQUEST', `${provider} refused the request (HTTP ${status}): ${detail}`, status);
  if (/Timeout/i.test(name)) return new LlmError('LLM_TIMEOUT', `${provider} did not answer in time`);
  if (/Connection/i.test(name)) return new LlmError('LLM_UNAVAILABLE', `${provider} could not be reached: ${detail}`);
  if (/Abort/i.test(name)) return new LlmError('LLM_FAILED', `${provider} request was cancelled`);
  return new LlmError('LLM_FAILED', `${provider} failed: ${detail}`);
}
