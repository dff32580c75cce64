import { KeyboardEvent, useRef, useState } from 'react';
import { SHELL_LIMITS } from '@shared/shell';

/** Spec 001 §2.2, §9: the menus' type-ahead search clears 500 ms after the last key. */
export const MENU_SEARCH_RESET_MS = SHELL_LIMITS.MENU_SEARCH_RESET_MS;

export interface TypeaheadItem {
  value: string;
  text: string;
}

/**
 * The item a type-ahead search lands on, as WAI-ARIA's menu pattern has it: the first item after the
 * highlighted one (wrapping) whose text starts with the search; one letter typed again cycles through
 * the items starting with it.
 */
export function typeaheadMatch(items: readonly TypeaheadItem[], search: string, current: string | null): string | null {
  const repeated = search.length > 1 && [...search].every((c) => c === search[0]);
  const query = (repeated ? search[0] : search).toLowerCase();
  const at = items.findIndex((i) => i.value === current);
  // From the highlighted item on, wrapping; a single letter moves on from it.
  const ordered = at < 0 ? items : [...items.slice(at), ...items.slice(0, at)];
  const candidates = query.length === 1 ? ordered.filter((i) => i.value !== current) : ordered;
  return candidates.find((i) => i.text.trim().toLowerCase().startsWith(query))?.value ?? null;
}

function isEditable(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
}

/**
 * Type-ahead for a Chakra (Ark) menu with the specification's reset time. Ark's own type-ahead clears
 * after a fixed 350 ms and takes no option, so it is switched off and this one drives the highlight:
 * spread `rootProps` on Menu.Root and `contentProps` on Menu.Content. The search is kept with the time
 * of its last key, so it clears after exactly `resetMs` whatever the timers are doing.
 */
export function useMenuTypeahead(resetMs: number = MENU_SEARCH_RESET_MS) {
  const [highlightedValue, setHighlightedValue] = useState<string | null>(null);
  const search = useRef({ keys: '', at: 0 });

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key.length !== 1 || event.ctrlKey || event.metaKey || event.altKey || isEditable(event.target)) return;
    const now = Date.now();
    const s = search.current;
    s.keys = now - s.at < resetMs ? s.keys + event.key : event.key;
    s.at = now;
    const items = [...event.currentTarget.querySelectorAll<HTMLElement>('[role^="menuitem"]:not([data-disabled])')].map((el) => ({
      value: el.dataset.value ?? '',
      text: el.dataset.valuetext ?? el.textContent ?? '',
    }));
    const found = typeaheadMatch(items, s.keys, highlightedValue);
    if (found !== null) setHighlightedValue(found);
    event.preventDefault();
  };

  return {
    rootProps: {
      typeahead: false,
      highlightedValue,
      onHighlightChange: ({ highlightedValue: value }: { highlightedValue: string | null }) => setHighlightedValue(value),
    },
    contentProps: { onKeyDown },
  };
}
