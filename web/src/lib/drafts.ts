// Text a person typed but has not sent, kept in local storage so a reload, a crash or a sign-in
// detour loses nothing.
import { useCallback, useEffect, useState } from 'react';

const PREFIX = 'sextant.draft.';

function read(key: string): string {
  try {
    return localStorage.getItem(PREFIX + key) ?? '';
  } catch {
    return '';
  }
}

function write(key: string, value: string): void {
  try {
    if (value) localStorage.setItem(PREFIX + key, value);
    else localStorage.removeItem(PREFIX + key);
  } catch {
    // Storage full or disabled: the draft lives in memory only.
  }
}

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
