// Where a page of a searched list stands, in words: which items it shows of how many.

const count = (n: number) => n.toLocaleString('en-US');

/** "Showing 51 to 100 of 10,000" or, after a search, "… of 12 matching “abc”". */
export function pageRange(before: number, shown: number, total: number, q: string): string {
  const of = q ? `${count(total)} matching “${q}”` : count(total);
  return `Showing ${count(before + 1)} to ${count(before + shown)} of ${of}`;
}
