import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Role } from '@shared/roles';
import { currentUser, fakeServer, renderPage } from '@/test/fake-server';
import { CreateSiteAdminPage } from './CreateSiteAdminPage';

vi.setConfig({ testTimeout: 30_000 });

function setup(
  reply: { status?: number; body?: unknown } = {
    status: 201,
    body: { success: true, message: 'The user has been created', organisationId: 5, userId: 6 },
  },
) {
  const server = fakeServer({
    'GET api/users/current': { body: currentUser([Role.E_SUPPORT]) },
    'POST auth/site-admin': reply,
  });
  const utils = renderPage('/users/createSiteAdmin', '/users/createSiteAdmin', <CreateSiteAdminPage />);
  return { ...server, ...utils };
}

const field = (label: string) => screen.getByLabelText(new RegExp(`^${label}`));

describe('CreateSiteAdminPage (spec 001 §2.12, §4, §5, §8, §9)', () => {
  it('starts with the defaults: Organization, no SSO, 1 / 1 / 0, tax manager off, corporate actions viewer and site admin on and read-only', async () => {
    setup();
    await screen.findByRole('heading', { name: 'Create Site Admin' });
    // What the new site admin's first sign-in asks: temporary password, own password, then MFA (enforced).
    expect(screen.getByTestId('site-admin-first-sign-in')).toHaveTextContent(
      'The site admin receives a temporary password by e-mail. At the first sign-in they choose their own password, then enable MFA with an authenticator app: site admins are created with MFA enforced.',
    );
    expect(screen.getByRole('radio', { name: 'Organization' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Individual' })).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'SSO' })).not.toBeChecked();
    expect(field('Allowed users')).toHaveValue(1);
    expect(field('Concurrent users')).toHaveValue(1);
    expect(field('Max portfolios')).toHaveValue(0);
    expect(field('Allowed users')).toHaveAttribute('min', '1');
    expect(field('Concurrent users')).toHaveAttribute('min', '1');
    expect(field('Max portfolios')).toHaveAttribute('min', '0');
    expect(field('Code')).toHaveAttribute('maxLength', '25');
    expect(screen.getByRole('checkbox', { name: 'Tax Manager' })).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Corporate Actions Viewer' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Corporate Actions Viewer' })).toBeDisabled();
    expect(screen.getByRole('checkbox', { name: 'Site Admin' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Site Admin' })).toBeDisabled();
    expect(screen.queryByLabelText(/SSO Logout URL/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Confirm' })).toBeDisabled();
  });

  it('enables Confirm only with code, e-mail and the name; Individual clears the name and needs none', async () => {
    setup();
    const confirm = await screen.findByRole('button', { name: 'Confirm' });
    await userEvent.type(field('Code'), 'ACME');
    await userEvent.type(field('Email'), 'admin@acme.example.com');
    expect(confirm).toBeDisabled();
    await userEvent.type(field('Name'), 'Acme');
    expect(confirm).toBeEnabled();
    await userEvent.click(screen.getByRole('radio', { name: 'Individual' }));
    await waitFor(() => expect(field('Name')).toHaveValue(''));
    expect(confirm).toBeEnabled();
    await userEvent.click(screen.getByRole('radio', { name: 'Organization' }));
    await waitFor(() => expect(confirm).toBeDisabled());
  });

  it('shows the messages of §5 when a field is left invalid', async () => {
    setup();
    await userEvent.click(await screen.findByLabelText(/^Name/));
    await userEvent.click(field('Email'));
    await userEvent.click(field('Code'));
    expect(await screen.findByText('Company name cannot be empty')).toBeInTheDocument();
    expect(screen.getByText('Email cannot be empty')).toBeInTheDocument();
    await userEvent.clear(field('Max portfolios'));
    await userEvent.type(field('Max portfolios'), '-1');
    await userEvent.tab();
    expect(await screen.findByText('Max portfolios must not be negative')).toBeInTheDocument();
  });

  it('shows the SSO logout URL only while SSO is on', async () => {
    setup();
    await userEvent.click(await screen.findByRole('checkbox', { name: 'SSO' }));
    expect(await screen.findByLabelText(/SSO Logout URL/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('checkbox', { name: 'SSO' }));
    await waitFor(() => expect(screen.queryByLabelText(/SSO Logout URL/)).not.toBeInTheDocument());
  });

  it("sends the payload, says 'The user has been created' and goes to users", async () => {
    const { callsTo, router } = setup();
    await userEvent.type(await screen.findByLabelText(/^Name/), ' Acme Pty Ltd ');
    await userEvent.type(field('Code'), 'ACME');
    await userEvent.type(field('Email'), 'admin@acme.example.com');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Tax Manager' }));
    await userEvent.clear(field('Concurrent users'));
    await userEvent.type(field('Concurrent users'), '3');
    await userEvent.click(screen.getByRole('checkbox', { name: 'SSO' }));
    await userEvent.type(await screen.findByLabelText(/SSO Logout URL/), 'https://idp.example.com/logout');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('The user has been created')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/users'));
    expect(callsTo('POST', 'auth/site-admin')[0].body).toEqual({
      userEmail: 'admin@acme.example.com',
      organizationName: 'Acme Pty Ltd',
      organizationCode: 'ACME',
      allowedUsersNumber: 1,
      maxConcurrentUsers: 3,
      maxPortfolios: 0,
      masterTaxManagerApplicationIds: [1],
      masterCorporateActionsApplicationIds: [2],
      userRoleIds: [2],
      accountType: 'Organization',
      ssoLogoutUrl: 'https://idp.example.com/logout',
      isSSO: true,
    });
  });

  it("shows the server's message in an error toast and stays", async () => {
    const { router } = setup({
      status: 409,
      body: { success: false, message: 'An organisation with this code already exists.' },
    });
    await userEvent.type(await screen.findByLabelText(/^Name/), 'Acme');
    await userEvent.type(field('Code'), 'ACME');
    await userEvent.type(field('Email'), 'admin@acme.example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('An organisation with this code already exists.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/users/createSiteAdmin');
  });
});
