// What a page that crashed shows instead of a blank screen or a stack trace.
import { useRouteError } from 'react-router';

export function RouteError() {
  const error = useRouteError();
  console.error(error);
  return (
    <div className="page-message">
      <h1>Something went wrong</h1>
      <p>This page failed to load. Reload to try again; what you typed in the question box is kept.</p>
      <button type="button" onClick={() => window.location.reload()}>
        Reload
      </button>
    </div>
  );
}
