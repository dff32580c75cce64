import { useCallback, useEffect, useState } from 'react';
import { SHELL_STORAGE_KEYS } from '@shared/portal/shell';

/** A preference kept in local storage (spec 001 §9: compact mode and the server choice persist). */
function useStoredChoice<T extends string>(key: string, fallback: T, allowed: readonly T[]): [T, (v: T) => void] {
  const read = () => {
    const v = localStorage.getItem(key) as T | null;
    return v && allowed.includes(v) ? v : fallback;
  };
  const [value, setValue] = useState<T>(read);
  const set = useCallback(
    (v: T) => {
      localStorage.setItem(key, v);
      setValue(v);
    },
    [key],
  );
  return [value, set];
}

export const SERVER_CHOICES = ['local', 'cloud'] as const;
export type ServerChoice = (typeof SERVER_CHOICES)[number];
export const ENGINE_CHOICES = ['com', 'cloud'] as const;
export type EngineChoice = (typeof ENGINE_CHOICES)[number];

export function useServerChoice() {
  return useStoredChoice<ServerChoice>(SHELL_STORAGE_KEYS.SERVER_CHOICE, 'local', SERVER_CHOICES);
}

export function useEngineChoice() {
  return useStoredChoice<EngineChoice>(SHELL_STORAGE_KEYS.ENGINE_CHOICE, 'com', ENGINE_CHOICES);
}

/** Compact mode: a denser theme (smaller root font size, so every rem-based size shrinks), kept in local storage. */
export function useCompactMode(): [boolean, (on: boolean) => void] {
  const [value, set] = useStoredChoice<'true' | 'false'>(SHELL_STORAGE_KEYS.COMPACT_MODE, 'false', ['true', 'false']);
  const on = value === 'true';
  useEffect(() => {
    document.documentElement.dataset.compact = String(on);
  }, [on]);
  return [on, (next: boolean) => set(next ? 'true' : 'false')];
}
