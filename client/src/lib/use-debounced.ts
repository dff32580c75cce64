import { useEffect, useState } from 'react';

/** Text filters go to the server once typing pauses (the users and the audit lists). */
export const FILTER_DEBOUNCE_MS = 300;

/** `value`, once it has stayed the same for `ms` milliseconds. */
export function useDebounced<T>(value: T, ms = FILTER_DEBOUNCE_MS): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return debounced;
}
