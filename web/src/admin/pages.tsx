// Keyset pages of a list: the cursors of the pages before this one (so going back needs no server
// cursor), a search that starts them again, and the buttons between pages. A press moves the focus
// to the list's heading, since the button pressed may not exist on the new page.
import { useState, type RefObject } from 'react';
import { useLoad, type Loaded } from '../ui/use-load.ts';

export interface Pages {
  cursor: string | undefined;
  /** How many pages come before this one. */
  index: number;
  hasPrevious: boolean;
  previous: () => void;
  next: (cursor: string) => void;
  reset: () => void;
}

export function usePages(heading: RefObject<HTMLElement | null>): Pages {
  const [cursors, setCursors] = useState<string[]>([]);
  const move = (next: string[]) => {
    setCursors(next);
    heading.current?.focus();
  };
  return {
    cursor: cursors.at(-1),
    index: cursors.length,
    hasPrevious: cursors.length > 0,
    previous: () => move(cursors.slice(0, -1)),
    next: (cursor) => move([...cursors, cursor]),
    reset: () => setCursors([]),
  };
}

/** A list searched on the server and read in keyset pages: a new search starts again at the first page. */
export function useSearchedPages<T>(heading: RefObject<HTMLElement | null>, load: (query: { q: string | undefined; cursor: string | undefined }, signal: AbortSignal) => Promise<T>) {
  const [q, setQ] = useState('');
  const pages = usePages(heading);
  const list: Loaded<T> = useLoad((signal) => load({ q: q || undefined, cursor: pages.cursor }, signal), `${q}\n${pages.cursor ?? ''}`);
  const search = (text: string) => {
    pages.reset();
    setQ(text);
  };
  return { q, search, pages, list };
}

interface PageButtonsProps {
  label: string;
  pages: Pages;
  nextCursor: string | null | undefined;
  previousText: string;
  nextText: string;
}

export function PageButtons({ label, pages, nextCursor, previousText, nextText }: PageButtonsProps) {
  return (
    <nav aria-label={label} className="actions">
      {pages.hasPrevious && (
        <button type="button" onClick={pages.previous}>
          {previousText}
        </button>
      )}
      {nextCursor && (
        <button type="button" onClick={() => pages.next(nextCursor)}>
          {nextText}
        </button>
      )}
    </nav>
  );
}
