// Keyset pages of a list: the cursors of the pages before this one (so going back needs no server
// cursor), and the buttons between pages. A press moves the focus to the list's heading, since the
// button pressed may not exist on the new page.
import { useState, type RefObject } from 'react';

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
