import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Role } from '@shared/roles';
import { authState, renderAt, signedIn } from '@/test/shell';
import { fakeServer } from '@/test/fake-server';
import { AnnouncementsPage } from './AnnouncementsPage';

vi.mock('@/lib/auth', async (importOriginal) => {
  const { authState: state } = await import('@/test/shell');
  return { ...(await importOriginal<object>()), useAuth: () => state.current };
});

const list = [
  {
    id: 2,
    title: 'Newer',
    content: 'Second',
    organisationId: 3,
    organisationName: 'Acme Pty Ltd',
    createdAt: '2026-03-02T01:00:00.000Z',
    dismissed: true,
  },
  {
    id: 1,
    title: 'Older',
    content: 'First',
    organisationId: null,
    organisationName: null,
    createdAt: '2026-03-01T01:00:00.000Z',
    dismissed: false,
  },
];

describe('Announcements page', () => {
  it('lists the announcements in the order the server gives (newest first), with their audience and dd/MM/yy date', async () => {
    authState.current = signedIn([Role.VIEWER]);
    fakeServer({ 'GET /api/announcements': { status: 200, body: list } });
    renderAt(<AnnouncementsPage />, '/announcements');
    const cards = await screen.findAllByTestId('announcement');
    expect(cards.map((c) => within(c).getByRole('heading').textContent)).toEqual(['Newer', 'Older']);
    expect(cards[0]).toHaveTextContent('Acme Pty Ltd');
    expect(cards[0]).toHaveTextContent('Dismissed');
    expect(cards[0]).toHaveTextContent('02/03/26');
    expect(cards[1]).toHaveTextContent('All organisations');
    // Only E-Support publishes.
    expect(screen.queryByTestId('publish-announcement')).toBeNull();
  });

  it('E-Support publishes to one organisation', async () => {
    authState.current = signedIn([Role.E_SUPPORT]);
    const { calls } = fakeServer({
      'GET /api/announcements': { status: 200, body: [] },
      'GET /api/announcements/organisations': { status: 200, body: [{ id: 3, code: 'ACME', name: 'Acme Pty Ltd' }] },
      'POST /api/announcements': { status: 201, body: list[0] },
    });
    renderAt(<AnnouncementsPage />, '/announcements');
    const form = await screen.findByTestId('publish-announcement');
    const publish = within(form).getByRole('button', { name: 'Publish' });
    expect(publish).toBeDisabled();
    await userEvent.type(within(form).getByLabelText(/Announcement title/), 'Reports released');
    await userEvent.type(within(form).getByLabelText(/Announcement text/), 'See the reports page.');
    await userEvent.click(within(form).getByText('One organisation'));
    expect(publish).toBeDisabled();
    await waitFor(() => expect(within(form).getByRole('option', { name: 'Acme Pty Ltd (ACME)' })).toBeInTheDocument());
    await userEvent.selectOptions(within(form).getByRole('combobox'), '3');
    await userEvent.click(publish);
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
        title: 'Reports released',
        content: 'See the reports page.',
        organisationId: 3,
      }),
    );
  });
});
