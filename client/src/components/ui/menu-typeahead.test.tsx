import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Role } from '@shared/roles';
import { ProfileMenu } from '@/app/layout/ProfileMenu';
import { authState, renderAt, signedIn } from '@/test/shell';
import { MENU_SEARCH_RESET_MS, typeaheadMatch } from './menu-typeahead';

// Typing through user-event is slow on a loaded machine: a wide limit, so only a real failure fails.
vi.setConfig({ testTimeout: 30_000 });

vi.mock('@/lib/auth', async (importOriginal) => {
  const { authState: state } = await import('@/test/shell');
  return { ...(await importOriginal<object>()), useAuth: () => state.current };
});

const ITEMS = ['Profile', 'User Manual', 'Give Feedback', 'Announcements', 'Contact Us', 'About', 'Log Out'].map(
  (text) => ({ value: text, text }),
);

describe('menu type-ahead (spec 001 §2.2, §9)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('finds the next item starting with the search, wraps, and cycles on a repeated letter', () => {
    expect(typeaheadMatch(ITEMS, 'a', null)).toBe('Announcements');
    expect(typeaheadMatch(ITEMS, 'a', 'Announcements')).toBe('About');
    expect(typeaheadMatch(ITEMS, 'a', 'About')).toBe('Announcements');
    expect(typeaheadMatch(ITEMS, 'aa', 'Announcements')).toBe('About');
    expect(typeaheadMatch(ITEMS, 'ab', 'Announcements')).toBe('About');
    expect(typeaheadMatch(ITEMS, 'user', null)).toBe('User Manual');
    expect(typeaheadMatch(ITEMS, 'x', 'Profile')).toBeNull();
  });

  it('the search clears 500 ms after the last key, not before', async () => {
    expect(MENU_SEARCH_RESET_MS).toBe(500);
    let now = 1_000_000;
    vi.spyOn(Date, 'now').mockImplementation(() => now);
    authState.current = signedIn([Role.ANALYST]);
    renderAt(<ProfileMenu />, '/reports');
    await userEvent.click(screen.getByTestId('profile-button'));
    const highlighted = () => screen.getByTestId('profile-menu').querySelector('[data-highlighted]')?.textContent;

    await userEvent.keyboard('a');
    expect(highlighted()).toBe('Announcements');
    // 450 ms later the search is still 'a…': 'ab' lands on About (a 350 ms reset would have searched 'b').
    now += 450;
    await userEvent.keyboard('b');
    expect(highlighted()).toBe('About');
    // 499 ms later still one search: 'abo' stays on About.
    now += 499;
    await userEvent.keyboard('o');
    expect(highlighted()).toBe('About');
    // 500 ms after the last key the search starts again: 'u' is User Manual.
    now += 500;
    await userEvent.keyboard('u');
    expect(highlighted()).toBe('User Manual');
  });
});
