// The disclaimers the app shows, each keyed by a hash of its text: a person who dismissed one sees
// it again if its wording changes. Settings lists the dismissed ones by this registry.

export interface Disclaimer {
  /** Where it appears, for Settings. */
  where: string;
  text: string;
}

export const AI_ANSWERS: Disclaimer = {
  where: 'Ask',
  text: 'Answers are written by an AI model from your organization’s data and can be wrong. Check the SQL behind a figure before you rely on it.',
};

export const DISCLAIMERS: Disclaimer[] = [AI_ANSWERS];

/** The disclaimer's key: FNV-1a of its text (a name, not a secret; works without crypto.subtle on plain http). */
export function disclaimerHash(d: Disclaimer): string {
  let h = 0x811c9dc5;
  for (const ch of d.text) {
    h ^= ch.codePointAt(0)!;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return `fnv1a-${h.toString(16).padStart(8, '0')}`;
}
