// Why a merge was refused, in the words of the person merging: the server's messages are written
// for API clients and name parameters and paths.
import type { ApiProblem } from '../api/problem.ts';

/** A refused merge in the words of the person merging (the server's messages name API parameters). */
export function mergeProblemText(problem: ApiProblem, admin: boolean): string {
  switch (problem.code) {
    case 'EVALUATIONS_PENDING':
      return 'The evaluations of this environment are still running, so it cannot be merged yet. Wait until the evaluation check shows its result, then merge again.';
    case 'EVALUATION_REGRESSION':
      return admin
        ? 'These questions answer worse here than on production. Fix them first, or tick “Merge despite the regressions” and merge again.'
        : 'These questions answer worse here than on production. Fix them first, or ask an admin to merge anyway.';
    case 'EVALUATION_STALE':
      return 'This environment or production changed while the evaluations were compared. Merge again to compare the latest versions.';
    default:
      return problem.message;
  }
}
