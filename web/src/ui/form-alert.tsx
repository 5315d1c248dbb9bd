// The plain message of a failed request (401, 403, 404, 409, 429, 5xx, offline), announced once.
import type { ApiProblem } from '../api/problem.ts';

export function FormAlert({ problem }: { problem: ApiProblem | undefined }) {
  if (!problem) return null;
  return (
    <div className="alert error" role="alert">
      {problem.message}
    </div>
  );
}

/** A success or information note. */
export function Note({ children, tone = 'ok' }: { children: React.ReactNode; tone?: 'ok' | 'info' }) {
  return (
    <div className={`alert ${tone}`} role="status">
      {children}
    </div>
  );
}
