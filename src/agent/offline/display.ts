// How a question asks its numbers to be shown (a scale, a currency, shares of the total): read by
// units.ts, carried by the intent and the plan. Its own module, so that the plan's types and the
// units' reading do not import each other.

/** A currency named, by the codes its word may mean ("dollars": USD, CAD...). */
export interface Currency {
  word: string;
  codes: string[];
}

/** What the question asks of the numbers' display, and where it said so. */
export interface Display {
  /** Numbers divided by this in the text ("in thousands": 1000), with its word. */
  scale?: { factor: number; word: 'thousands' | 'millions' | 'billions' };
  /** A currency the question asks for. */
  currency?: Currency;
  /** Each group's share of the total ("as a percentage"). */
  share?: true;
  span: [number, number];
}
