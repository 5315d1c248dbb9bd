// The query of a list people search and page through (saved questions, dashboards): the same three
// parameters, worded for what is listed, and the page it answers.
import { z } from 'zod';

/** `q`, `cursor` and `limit` for a list of `things` ("questions", "dashboards"). */
export const searchedPageQuery = (things: string) =>
  z.object({
    q: z.string().max(200).optional().describe(`Only the ${things} whose title or description contains this text (any ASCII case); empty: every one`),
    cursor: z.string().max(200).optional().describe("The previous page's next_cursor"),
    limit: z.coerce.number().int().min(1).max(500).optional().describe(`${things[0]!.toUpperCase()}${things.slice(1)} per page, 1 to 500; without it, every one from the cursor on`),
  });

/** The cursor a page ends with. */
export const NextCursor = z.string().nullable().describe('Opaque; pass as cursor for the next page, null at the end');
