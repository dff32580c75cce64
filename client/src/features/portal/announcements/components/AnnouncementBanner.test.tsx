import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Role } from '@shared/roles';
import { authState, renderAt, signedIn } from '@/test/shell';
import { fakeServer } from '@/test/fake-server';
import { AnnouncementBanner } from './AnnouncementBanner';

vi.mock('@/lib/auth', async (importOriginal) => {
  const { authState: state } = await import('@/test/shell');
  return { ...(await importOriginal<object>()), useAuth: () => state.current };
});

const SUMMARY = 'GET /api/announcements/summary';
const latest = {
  isLastAnnouncementDismissed: false,
  lastAnnnouncementId: 5,
  lastAnnnouncementTitle: 'Maintenance on Sunday',
};

describe('Announcement banner (spec 001 §2.8, §4)', () => {
  beforeEach(() => {
    authState.current = signedIn([Role.ANALYST]);
  });

  it.each(['/portfolios', '/corporate-actions-view', '/corporate-actions-view/events/3'])(
    'shows on %s, its title linking to the announcements page',
    async (path) => {
      fakeServer({ [SUMMARY]: { status: 200, body: latest } });
      renderAt(<AnnouncementBanner />, path);
      const link = await screen.findByRole('link', { name: 'Maintenance on Sunday' });
      expect(link).toHaveAttribute('href', '/announcements');
    },
  );

  it.each(['/', '/about', '/portfolios/4/sub-portfolios', '/reports'])(
    'does not show (nor fetch) on %s',
    async (path) => {
      const { calls } = fakeServer({ [SUMMARY]: { status: 200, body: latest } });
      renderAt(<AnnouncementBanner />, path);
      await new Promise((r) => setTimeout(r, 50));
      expect(screen.queryByTestId('announcement-banner')).toBeNull();
      expect(calls).toHaveLength(0);
    },
  );

  it('stays hidden when the latest announcement was dismissed, or when there is none', async () => {
    const { calls } = fakeServer({
      [SUMMARY]: { status: 200, body: { ...latest, isLastAnnouncementDismissed: true } },
    });
    const r = renderAt(<AnnouncementBanner />, '/portfolios');
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(screen.queryByTestId('announcement-banner')).toBeNull();
    r.unmount();
    fakeServer({
      [SUMMARY]: {
        status: 200,
        body: { isLastAnnouncementDismissed: false, lastAnnnouncementId: null, lastAnnnouncementTitle: null },
      },
    });
    renderAt(<AnnouncementBanner />, '/portfolios');
    await new Promise((r2) => setTimeout(r2, 50));
    expect(screen.queryByTestId('announcement-banner')).toBeNull();
  });

  it('dismissing hides it and tells the server', async () => {
    const { calls } = fakeServer({
      [SUMMARY]: { status: 200, body: latest },
      'POST /api/announcements/5/dismiss': { status: 200, body: { success: true } },
    });
    renderAt(<AnnouncementBanner />, '/portfolios');
    await userEvent.click(await screen.findByRole('button', { name: 'Dismiss announcement' }));
    expect(screen.queryByTestId('announcement-banner')).toBeNull();
    expect(calls.some((c) => c.method === 'POST' && c.url === '/api/announcements/5/dismiss')).toBe(true);
  });

  it('dismissing hides it even when the call fails', async () => {
    fakeServer({
      [SUMMARY]: { status: 200, body: latest },
      'POST /api/announcements/5/dismiss': { status: 500, body: { success: false, message: 'boom' } },
    });
    renderAt(<AnnouncementBanner />, '/portfolios');
    await userEvent.click(await screen.findByRole('button', { name: 'Dismiss announcement' }));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByTestId('announcement-banner')).toBeNull();
  });

  it('is refetched on each navigation to /portfolios, and a newer announcement shows', async () => {
    let n = 0;
    const { calls } = fakeServer({
      [SUMMARY]: () => ({
        status: 200,
        body: ++n === 1 ? latest : { ...latest, lastAnnnouncementId: 6, lastAnnnouncementTitle: 'Reports released' },
      }),
    });
    const { router } = renderAt(<AnnouncementBanner />, '/portfolios');
    expect(await screen.findByText('Maintenance on Sunday')).toBeInTheDocument();
    await act(() => router.navigate('/about'));
    expect(screen.queryByTestId('announcement-banner')).toBeNull();
    await act(() => router.navigate('/portfolios'));
    expect(await screen.findByText('Reports released')).toBeInTheDocument();
    expect(calls.filter((c) => c.url === '/api/announcements/summary').length).toBeGreaterThanOrEqual(2);
  });
});
