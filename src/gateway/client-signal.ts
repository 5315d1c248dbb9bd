// The request's "client went away" as an AbortSignal, for work that should stop with it (a warehouse
// query nobody will read). Made on demand: most routes never ask, and a listener costs each request.
import type { Context } from 'koa';

const signals = new WeakMap<Context, AbortSignal>();

/** Aborts when the response's connection closes before the response was complete. */
export function clientSignal(ctx: Context): AbortSignal {
  let signal = signals.get(ctx);
  if (signal) return signal;
  const controller = new AbortController();
  signal = controller.signal;
  signals.set(ctx, signal);
  const res = ctx.res;
  // The response's close, not the request's: a request emits 'close' once its body is read (see sse.ts).
  const onClose = () => {
    if (!res.writableFinished) controller.abort();
  };
  if (res.destroyed) onClose();
  else res.once('close', onClose);
  return signal;
}
