import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { INVITATION_MESSAGES, type InvitationPreview } from '@shared/administration/invitations';
import { AUTH_MESSAGES, SECURITY_MESSAGES } from '@shared/messages';
import { Role } from '@shared/roles';
import { tokenStore } from '@/lib/api';
import { currentUser, fakeServer, renderPage } from '@/test/fake-server';
import { INVITATION_TEXTS as T } from '../invitations-texts';
import { InvitationAcceptPage } from './InvitationAcceptPage';

vi.setConfig({ testTimeout: 20_000 });

const preview: InvitationPreview = {
  organisationName: 'Acme Pty Ltd',
  email: 'new.person@acme.test',
  inviterName: 'Sam Site',
  expiresAt: new Date(2030, 0, 2, 9, 0).toISOString(),
  sso: false,
};

function setup(routes: Parameters<typeof fakeServer>[0] = {}) {
  const server = fakeServer({
    'GET api/users/current': { body: currentUser([Role.ANALYST]) },
    'GET api/invitations/by-token/tok-1': { body: preview },
    'POST api/invitations/accept': { body: { success: true, accessToken: 'fresh-access-token' } },
    ...routes,
  });
  renderPage('/invite?token=tok-1', '/invite', <InvitationAcceptPage />);
  tokenStore.clear();
  return server;
}

async function fill(password = 'Blue-Lantern-Orbit-42') {
  await userEvent.type(screen.getByLabelText(/First name/), 'Ada');
  await userEvent.type(screen.getByLabelText(/Last name/), 'Lovelace');
  await userEvent.type(screen.getByLabelText(/^Password/), password);
  await userEvent.type(screen.getByLabelText(/Confirm password/), password);
}

describe('InvitationAcceptPage (/invite)', () => {
  it('shows who invited to which organisation, asks for the terms, then signs in with the new account', async () => {
    const server = setup();
    expect(await screen.findByRole('heading', { name: T.joinTitle('Acme Pty Ltd') })).toBeInTheDocument();
    expect(screen.getByTestId('invitation-summary')).toHaveTextContent('Sam Site invited you as new.person@acme.test.');
    await fill();
    await userEvent.click(screen.getByRole('button', { name: T.ACCEPT }));
    expect(await screen.findByText(AUTH_MESSAGES.TERMS_NOT_ACCEPTED)).toBeInTheDocument();
    expect(server.callsTo('POST', 'api/invitations/accept')).toHaveLength(0);
    await userEvent.click(screen.getByTestId('invitation-terms'));
    await userEvent.click(screen.getByRole('button', { name: T.ACCEPT }));
    await screen.findByTestId('elsewhere');
    expect(server.callsTo('POST', 'api/invitations/accept')[0].body).toEqual({
      token: 'tok-1',
      firstName: 'Ada',
      lastName: 'Lovelace',
      password: 'Blue-Lantern-Orbit-42',
      acceptToS: true,
    });
    expect(tokenStore.get()).toBe('fresh-access-token');
  });

  it('checks the password rules before sending, and shows a breached password under the field', async () => {
    const server = setup({
      'POST api/invitations/accept': {
        status: 400,
        body: {
          success: false,
          statusCode: 400,
          code: 'PASSWORD_BREACHED',
          message: SECURITY_MESSAGES.PASSWORD_BREACHED,
        },
      },
    });
    await screen.findByTestId('invitation-form');
    await fill('short');
    await userEvent.click(screen.getByRole('button', { name: T.ACCEPT }));
    expect(await screen.findByTestId('invitation-password-error')).toHaveTextContent('at least 8 characters');
    expect(server.callsTo('POST', 'api/invitations/accept')).toHaveLength(0);
    await userEvent.clear(screen.getByLabelText(/^Password/));
    await userEvent.clear(screen.getByLabelText(/Confirm password/));
    await userEvent.type(screen.getByLabelText(/^Password/), 'password123');
    await userEvent.type(screen.getByLabelText(/Confirm password/), 'password123');
    await userEvent.click(screen.getByTestId('invitation-terms'));
    await userEvent.click(screen.getByRole('button', { name: T.ACCEPT }));
    await waitFor(() =>
      expect(screen.getByTestId('invitation-password-error')).toHaveTextContent(SECURITY_MESSAGES.PASSWORD_BREACHED),
    );
  });

  it('says when a link is expired, used or withdrawn, and how to get a new one', async () => {
    setup({
      'GET api/invitations/by-token/tok-1': {
        status: 404,
        body: { success: false, statusCode: 404, code: 'INVITATION_INVALID', message: INVITATION_MESSAGES.INVALID },
      },
    });
    expect(await screen.findByTestId('invitation-invalid')).toHaveTextContent(
      'Ask the administrator who invited you to send a new one.',
    );
    expect(screen.queryByTestId('invitation-form')).not.toBeInTheDocument();
  });

  it("sends an address of a provider-only domain to its organisation's sign-in instead of a password", async () => {
    setup({ 'GET api/invitations/by-token/tok-1': { body: { ...preview, sso: true } } });
    expect(await screen.findByTestId('invitation-sso')).toHaveTextContent(T.SSO_BUTTON);
    expect(screen.queryByTestId('invitation-form')).not.toBeInTheDocument();
  });
});
