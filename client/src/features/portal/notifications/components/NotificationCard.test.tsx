import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { NotificationItem } from '@shared/portal/notifications';
import { SUPPORT_ACCESS_MESSAGES } from '@shared/portal/support-access';
import { renderRoutes } from '@/test/render';
import { NotificationCard } from './NotificationCard';

vi.setConfig({ testTimeout: 20_000 });

const item = (content: NotificationItem['content']): NotificationItem => ({
  notificationId: 1,
  read: false,
  date: '2026-12-02T08:00:00.000Z',
  type: 'OTHER',
  content,
});

describe('NotificationCard', () => {
  it('a support-access request links to the page where a site admin approves or refuses it', async () => {
    const { router } = renderRoutes([
      {
        path: '/',
        element: (
          <NotificationCard
            item={item({ subCategory: SUPPORT_ACCESS_MESSAGES.NOTIFICATION_TITLE, message: 'help@vendor.test asks' })}
            onDismiss={() => undefined}
          />
        ),
      },
      { path: '/users/support-access', element: <div data-testid="support-access-page" /> },
    ]);
    await userEvent.click(await screen.findByRole('link', { name: SUPPORT_ACCESS_MESSAGES.NOTIFICATION_LINK }));
    expect(await screen.findByTestId('support-access-page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/users/support-access');
  });

  it('other notifications carry no such link', async () => {
    renderRoutes([
      { path: '/', element: <NotificationCard item={item({ message: 'Report ready' })} onDismiss={() => undefined} /> },
    ]);
    await screen.findByText(/Report ready/);
    expect(screen.queryByRole('link', { name: SUPPORT_ACCESS_MESSAGES.NOTIFICATION_LINK })).not.toBeInTheDocument();
  });
});
