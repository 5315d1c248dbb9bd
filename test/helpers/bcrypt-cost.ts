// bcrypt's cost in the processes the tests start (test apps, replicas) unless a test sets
// SEXTANT_BCRYPT_COST: the lowest. A hash at the production default (10) costs ~90 ms of CPU to make
// or check, at every seeded demo user, sign-in and recovery code, hundreds of times in the suite.
// Tests of the cost itself set theirs.
export const TEST_BCRYPT_COST = 4;
