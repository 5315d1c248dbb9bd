// The narrow centred page of the sign-in flow and the mail links.
import { useEffect, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useDocumentTitle } from './document-title.ts';

export function CardPage({ title, children, wide = false }: { title: string; children: ReactNode; wide?: boolean }) {
  useDocumentTitle(title);
  useEffect(() => {
    window.scrollTo(0, 0);
  }, []);
  return (
    <main className={wide ? 'card-page wide' : 'card-page'}>
      <Link to="/" className="brand">
        <img src="/favicon.svg" alt="" width={24} height={24} /> Sextant
      </Link>
      <div className="card">
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}
