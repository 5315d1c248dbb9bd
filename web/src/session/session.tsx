// Who is signed in, for the whole app. A 401 on any signed-in call ends the session here, and
// RequireSignIn sends the person to sign in with the page they were on as `next` (drafts live in
// local storage, so nothing typed is lost).
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { api, call, onUnauthorized } from '../api/client.ts';
import { ApiProblem } from '../api/problem.ts';
import { signInUrl } from '../lib/safe-next.ts';

export type Me = Awaited<ReturnType<typeof loadMe>>;
type SessionState = { status: 'loading' } | { status: 'signed-out'; expired: boolean } | { status: 'signed-in'; me: Me } | { status: 'failed'; problem: ApiProblem };

interface Session {
  state: SessionState;
  /** Reads /api/auth/me again (after signing in). */
  refresh: () => Promise<void>;
  /** Ends the session on the server and here. */
  signOut: () => Promise<void>;
}

const SessionContext = createContext<Session | undefined>(undefined);

const loadMe = () => call(api.GET('/api/auth/me'));

export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>({ status: 'loading' });
  const refresh = useCallback(async () => {
    try {
      setState({ status: 'signed-in', me: await loadMe() });
    } catch (err) {
      if (err instanceof ApiProblem && (err.status === 401 || err.status === 403)) setState({ status: 'signed-out', expired: false });
      else setState({ status: 'failed', problem: err instanceof ApiProblem ? err : new ApiProblem(0, 'Could not start the app.', 'CLIENT_ERROR') });
    }
  }, []);
  useEffect(() => {
    void refresh();
  }, [refresh]);
  useEffect(() => onUnauthorized(() => setState((s) => (s.status === 'signed-in' ? { status: 'signed-out', expired: true } : s))), []);
  const signOut = useCallback(async () => {
    await call(api.POST('/api/auth/logout', { body: {} })).catch(() => undefined);
    setState({ status: 'signed-out', expired: false });
  }, []);
  const value = useMemo(() => ({ state, refresh, signOut }), [state, refresh, signOut]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}

/** The signed-in user (only inside RequireSignIn). */
export function useMe(): Me {
  const { state } = useSession();
  if (state.status !== 'signed-in') throw new Error('useMe outside a signed-in page');
  return state.me;
}

/** Shows its children to a signed-in person; others go to sign in and come back here. */
export function RequireSignIn({ children }: { children: ReactNode }) {
  const { state, refresh } = useSession();
  const location = useLocation();
  if (state.status === 'loading') return <p className="page-message" role="status">Loading…</p>;
  if (state.status === 'failed')
    return (
      <div className="page-message">
        <div className="alert error" role="alert">
          {state.problem.message}
        </div>
        <button type="button" onClick={() => void refresh()}>
          Try again
        </button>
      </div>
    );
  if (state.status === 'signed-out') return <Navigate to={signInUrl(location.pathname + location.search + location.hash, state.expired)} replace />;
  return <>{children}</>;
}
