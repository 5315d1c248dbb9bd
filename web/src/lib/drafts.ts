// Text a person typed but has not sent, kept in local storage so a reload, a crash or a sign-in
// detour loses nothing.
import { useCallback, useEffect, useRef, useState } from 'react';

const PREFIX = 'sextant.draft.';

const read = (key: string): string => readRaw(key) ?? '';
const write = (key: string, value: string): void => writeRaw(key, value || null);

/**
 * A text kept under `key`; setting it saves it at once. When the key changes the text is the new key's,
 * except where `carries(from, to)` says both keys name one thing (a new chat getting its address while
 * its first answer runs): then the text moves along, unless the new key holds one of its own. A remark
 * typed while the address came was lost so (seen under load in the browser tests).
 */
export function useDraft(key: string, carries?: (from: string, to: string) => boolean): [string, (value: string) => void] {
  const [value, setValue] = useState(() => read(key));
  const shown = useRef({ key, value });
  shown.current.value = value;
  useEffect(() => {
    const from = shown.current;
    if (from.key === key) return;
    shown.current = { key, value: from.value };
    const own = readRaw(key);
    if (own === null && from.value && carries?.(from.key, key)) {
      write(key, from.value);
      write(from.key, '');
      return;
    }
    setValue(own ?? '');
    // `carries` is read when the key changes, not a reason to read again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  const set = useCallback(
    (v: string) => {
      setValue(v);
      write(key, v);
    },
    [key],
  );
  return [value, set];
}

/**
 * An edit of a saved value, kept under `key` until `discard` (after the save): starts from the
 * draft if one is kept, else from `saved`. An emptied field is a draft too.
 */
export function useEditDraft(key: string, saved: string): { value: string; set: (value: string) => void; discard: () => void } {
  const [draft, setDraft] = useState<string | null>(() => readRaw(key));
  const set = useCallback(
    (v: string) => {
      setDraft(v);
      writeRaw(key, v);
    },
    [key],
  );
  const discard = useCallback(() => {
    setDraft(null);
    writeRaw(key, null);
  }, [key]);
  return { value: draft ?? saved, set, discard };
}

function readRaw(key: string): string | null {
  try {
    return localStorage.getItem(PREFIX + key);
  } catch {
    return null;
  }
}

function writeRaw(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(PREFIX + key);
    else localStorage.setItem(PREFIX + key, value);
  } catch {
    // Storage full or disabled: the draft lives in memory only.
  }
}
