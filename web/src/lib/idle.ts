// Work the page can do ahead of need, once the browser has nothing else to do.

/** Runs `work` when the page is idle (or after a short delay where idle callbacks do not exist); returns what cancels it. */
export function whenIdle(work: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(work, { timeout: 2_000 });
    return () => window.cancelIdleCallback(id);
  }
  const timer = window.setTimeout(work, 200);
  return () => window.clearTimeout(timer);
}
