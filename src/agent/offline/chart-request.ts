// How a question asks its answer to be drawn ("as a line chart", "show a bar chart of ...", "plot
// revenue by month", "a pie chart of orders by channel"): the chart's mark, never what the query
// computes. Its words are understood, so that the question is answered rather than refused for them.

/** make_chart's marks: a pie or donut is an arc, a scatter plot points. */
export type ChartMark = 'bar' | 'line' | 'area' | 'arc' | 'point';

export interface ChartRequest {
  /** The mark the question names; undefined for "as a chart", "plot ...": the usual one (a line over time, else bars). */
  mark?: ChartMark;
  span: [number, number];
}

const MARKS: Record<string, ChartMark> = { bar: 'bar', column: 'bar', line: 'line', area: 'area', pie: 'arc', donut: 'arc', doughnut: 'arc', scatter: 'point' };
const KIND = `(${Object.keys(MARKS).join('|')})`;
const NOUN = '(?:chart|graph|plot|diagram)s?';
const PATTERNS = [
  // "as a line chart", "in a bar graph", "as a chart", "on a pie chart"
  new RegExp(`\\b(?:as|in|on|with|using) (?:an? |the )?(?:${KIND} )?${NOUN}\\b`),
  // "a bar chart of", "show a line graph of", "pie chart"
  new RegExp(`\\b(?:(?:show|draw|make|give|plot)(?: me)? )?(?:an? |the )?${KIND} ${NOUN}(?: of| for| showing)?\\b`),
  // "plot revenue by month", "chart orders by channel", "graph units by month": a leading verb
  /^(?:please )?(?:plot|chart|graph|draw)(?: me)?(?: (?:an? |the )?(?:chart|graph|plot)(?: of)?)?(?= \S)/,
];

/** The chart a (normalized) question asks for, if any. */
export function findChart(text: string): ChartRequest | undefined {
  for (const re of PATTERNS) {
    const r = re.exec(text);
    if (!r) continue;
    const kind = r[1];
    return { ...(kind ? { mark: MARKS[kind]! } : {}), span: [r.index, r.index + r[0].length] };
  }
  return undefined;
}
