// How long a test waits on something before calling it hung. The suite runs on shared 2-core machines
// (CI, and the engineers' own) that may be slower than usual by any factor, and a limit a slow machine
// can reach fails tests that are right: these limits only catch hangs, and no outcome depends on them.
// A test about a limit sets that limit itself, small and deterministic (a fake clock, a fake server).

/** The longest wait for a connection, a page, an element or a process that is only slow. */
export const HANG_MS = 120_000;

/**
 * What a busy machine may add to work that takes a moment on an idle one: the margin of a test that
 * asserts work ends at a deadline (a timeout, a signal, a grace period) rather than at its own end,
 * which must be minutes or more away, so that the test tells the two apart on any machine.
 */
export const BUSY_MARGIN_MS = 15_000;

/**
 * The limit of a test whose own steps take minutes on a busy machine (a build, gateway processes
 * started and seeded, a browser's pages, a PostgreSQL database of its own): with two other busy
 * processes on the 2 cores, such tests took over the 1 to 2 minutes they had, each step still moving.
 */
export const SLOW_TEST_MS = 4 * HANG_MS;
