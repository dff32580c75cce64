import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Role } from '@shared/roles';
import { PROVISIONING_TEXTS as T, SCIM_MESSAGES, type ScimTokenItem } from '@shared/identity/scim';
import { currentUser, fakeServer, renderPage } from '@/test/fake-server';
import { ProvisioningPage } from './ProvisioningPage';

vi.setConfig({ testTimeout: 20_000 });

const token: ScimTokenItem = {
  id: 7,
  name: 'Entra ID',
  organisationId: 3,
  createdAt: new Date(2026, 10, 2, 10, 0).toISOString(),
  createdBy: 'site.admin@acme.test',
  lastUsedAt: null,
};

function setup(roles: Role[], tokens: ScimTokenItem[] = [token], path = '/users/provisioning') {
  const server = fakeServer({
    'GET api/users/current': { body: currentUser(roles) },
    'GET api/scim-tokens': { body: tokens },
    'POST api/scim-tokens': { status: 201, body: { id: 8, name: 'Okta', token: 'scim_secret-shown-once' } },
    'DELETE api/scim-tokens/7': { body: { success: true } },
  });
  renderPage(path, '/users/provisioning', <ProvisioningPage />);
  return server;
}

describe('ProvisioningPage (users/provisioning)', () => {
  it('lists the tokens with created, created by and last used; the SCIM address to copy', async () => {
    setup([Role.SITE_ADMIN]);
    const row = await screen.findByTestId('scim-token-row');
    expect(within(row).getByText('Entra ID')).toBeInTheDocument();
    expect(within(row).getByText('site.admin@acme.test')).toBeInTheDocument();
    expect(within(row).getByText(T.NEVER_USED)).toBeInTheDocument();
    expect(screen.getByTestId('scim-base-url')).toHaveTextContent(/\/scim\/v2$/);
  });

  it('creates a token (name required) and shows it once with a copy button', async () => {
    const server = setup([Role.SITE_ADMIN]);
    await screen.findByTestId('scim-token-row');
    await userEvent.click(screen.getByRole('button', { name: T.CREATE }));
    expect(await screen.findByText(SCIM_MESSAGES.TOKEN_NAME_REQUIRED)).toBeInTheDocument();
    expect(server.calls.some((c) => c.method === 'POST')).toBe(false);
    await userEvent.type(screen.getByRole('textbox', { name: /Token name/ }), '  Okta ');
    await userEvent.click(screen.getByRole('button', { name: T.CREATE }));
    expect(await screen.findByTestId('new-scim-token-value')).toHaveTextContent('scim_secret-shown-once');
    expect(server.calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Okta' });
    expect(screen.getByRole('button', { name: T.COPY })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: T.DONE }));
    expect(screen.queryByTestId('new-scim-token')).not.toBeInTheDocument();
  });

  it('revokes after confirmation', async () => {
    const server = setup([Role.SITE_ADMIN]);
    await userEvent.click(await screen.findByRole('button', { name: `${T.REVOKE} Entra ID` }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent(T.revokeQuestion('Entra ID'));
    await userEvent.click(within(dialog).getByRole('button', { name: T.REVOKE }));
    await waitFor(() =>
      expect(server.calls.some((c) => c.method === 'DELETE' && c.path === 'api/scim-tokens/7')).toBe(true),
    );
  });

  it('administrators see the list without create or revoke', async () => {
    setup([Role.STANDARD_ADMIN, Role.ADMINISTRATOR]);
    await screen.findByTestId('scim-token-row');
    expect(screen.queryByRole('button', { name: T.CREATE })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Revoke/ })).not.toBeInTheDocument();
    expect(screen.getByText(T.READ_ONLY)).toBeInTheDocument();
  });

  it('E-Support works on the organisation named in the address', async () => {
    const server = setup([Role.E_SUPPORT], [token], '/users/provisioning?organisationId=3');
    await screen.findByTestId('scim-token-row');
    expect(server.calls.some((c) => c.path === 'api/scim-tokens?organisationId=3')).toBe(true);
  });

  it('E-Support without an organisation reads no tokens', async () => {
    const server = setup([Role.E_SUPPORT]);
    expect(await screen.findByText(T.SUPPORT_PICK)).toBeInTheDocument();
    expect(server.calls.some((c) => c.path.startsWith('api/scim-tokens'))).toBe(false);
  });
});
