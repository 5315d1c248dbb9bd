// The title of something people keep (a saved question, a dashboard): one line of text. Control
// characters (NUL, newlines, escape sequences) have no place in a title, and shown as they are they
// break lists in terminals and mail subjects or forge extra rows there.
import { z } from 'zod';

const CONTROL = /\p{Cc}/u;

export const Title = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .refine((title) => !CONTROL.test(title), 'A title cannot contain control characters (line breaks, tabs, escapes)');
