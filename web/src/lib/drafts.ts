// Text a person typed but has not sent, kept in local storage so a reload, a crash or a sign-in
// detour loses nothing.
import { useCallback, useEffect, useState } from 'react';

const PREFIX = 'sextant.draft.';

const read = (key: string): string => readRaw(key) ?? '';
const write = (key: string, value: string): void => writeRaw(key, value || null);

/** A text kept under `key`; setting it saves it at once. */
export function useDraft(key: string): [string, (value: string) => void] {
  const [value, setValue] = useState(() => read(key));
  useEffect(() => {
    setValue(read(key));
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
