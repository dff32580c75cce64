import { forwardRef, KeyboardEvent, useRef } from 'react';
import { Menu, MenuContentProps, useMenuContext } from '@chakra-ui/react';
import { SHELL_LIMITS } from '@shared/portal/shell';

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
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))
  );
}

/**
 * Menu.Content with the specification's type-ahead. Ark's own type-ahead clears after a fixed 350 ms and
 * takes no option, so the menu's Root gets `typeahead={false}` (MENU_TYPEAHEAD_OFF) and this content
 * moves the highlight itself, through the menu's own API. The search is kept with the time of its last
 * key, so it clears after exactly `resetMs` whatever the timers are doing.
 */
export const MENU_TYPEAHEAD_OFF = { typeahead: false } as const;

export const TypeaheadMenuContent = forwardRef<HTMLDivElement, MenuContentProps & { resetMs?: number }>(
  function TypeaheadMenuContent({ resetMs = MENU_SEARCH_RESET_MS, onKeyDown, ...props }, ref) {
    const menu = useMenuContext();
    const search = useRef({ keys: '', at: 0 });

    const typeahead = (event: KeyboardEvent<HTMLDivElement>) => {
      onKeyDown?.(event);
      if (event.defaultPrevented) return;
      if (event.key.length !== 1 || event.ctrlKey || event.metaKey || event.altKey || isEditable(event.target)) return;
      const now = Date.now();
      const s = search.current;
      s.keys = now - s.at < resetMs ? s.keys + event.key : event.key;
      s.at = now;
      const items = [
        ...event.currentTarget.querySelectorAll<HTMLElement>('[role^="menuitem"]:not([data-disabled])'),
      ].map((el) => ({
        value: el.dataset.value ?? '',
        text: el.dataset.valuetext ?? el.textContent ?? '',
      }));
      const found = typeaheadMatch(items, s.keys, menu.highlightedValue);
      if (found !== null) menu.setHighlightedValue(found);
      event.preventDefault();
    };

    return <Menu.Content ref={ref} {...props} onKeyDown={typeahead} />;
  },
);
