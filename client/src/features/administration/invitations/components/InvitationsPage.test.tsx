import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { BulkInviteResult, InvitationItem, InvitationList } from '@shared/administration/invitations';
import { Role } from '@shared/roles';
import { currentUser, fakeServer, renderPage } from '@/test/fake-server';
import { INVITATION_TEXTS as T } from '../invitations-texts';
import { InvitationsPage } from './InvitationsPage';

vi.setConfig({ testTimeout: 30_000 });

const item: InvitationItem = {
  id: 5,
  email: 'pending@acme.test',
  roleId: Role.ANALYST,
  admin: false,
  status: 'pending',
  expiresAt: new Date(2030, 0, 2).toISOString(),
  createdAt: new Date(2029, 11, 26).toISOString(),
  invitedBy: 'Sam Site',
  acceptedAt: null,
  revokedAt: null,
};
const list: InvitationList = {
  items: [item, { ...item, id: 6, email: 'done@acme.test', status: 'accepted' }],
  totalRecords: 2,
  seats: { allowedUsers: 10, activeUsers: 7, freeSeats: 3, pendingInvitations: 1 },
};

function setup(roles: Role[], path = '/organisation-settings/invitations') {
  const server = fakeServer({
    'GET api/users/current': { body: currentUser(roles) },
    'GET api/invitations': { body: list },
    'POST api/invitations': { status: 201, body: { ...item, id: 9, email: 'new@acme.test' } },
    'POST api/invitations/5/resend': { body: item },
    'DELETE api/invitations/5': { body: { success: true } },
    'GET api/announcements/organisations': { body: [{ id: 3, code: 'BETA', name: 'Beta Ltd' }] },
  });
  renderPage(path, '/organisation-settings/invitations', <InvitationsPage />);
  return server;
}

describe('InvitationsPage (organisation settings, Invitations)', () => {
  it('lists invitations with their status, and pending invitations against free seats', async () => {
    setup([Role.SITE_ADMIN]);
    const rows = await screen.findAllByTestId('invitation-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]).getByText('Pending')).toBeInTheDocument();
    expect(within(rows[1]).getByText('Accepted')).toBeInTheDocument();
    // Only open invitations can be resent or withdrawn.
    expect(within(rows[1]).queryByRole('button')).not.toBeInTheDocument();
    expect(screen.getByTestId('invitation-seats')).toHaveTextContent(T.seats(1, 3));
  });

  it('invites one person with the chosen role, flag and validity', async () => {
    const server = setup([Role.SITE_ADMIN]);
    await screen.findAllByTestId('invitation-row');
    await userEvent.type(screen.getByLabelText(/^Email/), 'new@acme.test');
    await userEvent.selectOptions(screen.getByTestId('invite-role'), String(Role.VIEWER));
    await userEvent.click(screen.getByText(T.ADMIN_FLAG));
    await userEvent.clear(screen.getByLabelText(T.EXPIRES_IN));
    await userEvent.type(screen.getByLabelText(T.EXPIRES_IN), '14');
    await userEvent.click(screen.getByRole('button', { name: T.SEND }));
    await waitFor(() => expect(server.callsTo('POST', 'api/invitations')).toHaveLength(1));
    expect(server.callsTo('POST', 'api/invitations')[0].body).toEqual({
      email: 'new@acme.test',
      roleId: Role.VIEWER,
      admin: true,
      expiresInDays: 14,
    });
  });

  it('administrators cannot grant the Administrator role', async () => {
    setup([Role.STANDARD_ADMIN, Role.ADMINISTRATOR]);
    await screen.findAllByTestId('invitation-row');
    expect(screen.queryByTestId('invite-admin')).not.toBeInTheDocument();
  });

  it('resends and withdraws after confirmation', async () => {
    const server = setup([Role.SITE_ADMIN]);
    await screen.findAllByTestId('invitation-row');
    await userEvent.click(screen.getByRole('button', { name: `${T.RESEND} pending@acme.test` }));
    await waitFor(() => expect(server.callsTo('POST', 'api/invitations/5/resend')).toHaveLength(1));
    await userEvent.click(screen.getByRole('button', { name: `${T.REVOKE} pending@acme.test` }));
    await userEvent.click(await screen.findByRole('button', { name: T.REVOKE }));
    await waitFor(() => expect(server.callsTo('DELETE', 'api/invitations/5')).toHaveLength(1));
  });

  it('uploads a CSV in batches of 100 rows and shows a result per row', async () => {
    const server = setup([Role.SITE_ADMIN]);
    const sent: string[] = [];
    await screen.findAllByTestId('invitation-row');
    const rows = Array.from({ length: 250 }, (_, i) => `p${i}@acme.test,Analyst`);
    server.respondWith('POST', /\/api\/invitations\/bulk/, (call) => {
      sent.push(String(call.rawBody instanceof Blob ? call.rawBody.size : ''));
      const start = sent.length === 1 ? 0 : sent.length === 2 ? 100 : 200;
      const size = sent.length < 3 ? 100 : 50;
      const answer: BulkInviteResult[] = Array.from({ length: size }, (_, i) => ({
        row: i + 1,
        email: `p${start + i}@acme.test`,
        status: start + i === 0 ? 'refused' : 'invited',
        ...(start + i === 0 ? { reason: 'Unknown role.' } : {}),
      }));
      return { body: answer };
    });
    const file = new File([['email,role', ...rows].join('\n')], 'people.csv', { type: 'text/csv' });
    await userEvent.upload(screen.getByTestId('invite-csv'), file);
    expect(await screen.findByTestId('invite-bulk-summary')).toHaveTextContent(T.uploaded(249, 0, 1));
    expect(sent).toHaveLength(3);
    const table = screen.getByTestId('invite-bulk-results');
    expect(within(table).getByText('p249@acme.test')).toBeInTheDocument();
    // Rows are numbered through the whole file, not per batch.
    expect(within(table).getByText('250')).toBeInTheDocument();
  });

  it('E-Support chooses the organisation first', async () => {
    const server = setup([Role.E_SUPPORT], '/organisation-settings/invitations');
    expect(await screen.findByText(T.SUPPORT_PICK)).toBeInTheDocument();
    expect(server.callsTo('GET', 'api/invitations')).toHaveLength(0);
  });
});
