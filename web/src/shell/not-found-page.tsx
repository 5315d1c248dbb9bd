import { Link } from 'react-router';
import { useDocumentTitle } from '../ui/document-title.ts';

/** A client route that does not exist. */
export function NotFoundPage() {
  useDocumentTitle('Not found');
  return (
    <div className="page-message">
      <h1>Page not found</h1>
      <p>
        There is nothing at this address. <Link to="/">Ask a question</Link> instead.
      </p>
    </div>
  );
}
