import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { OrganisationGlance } from '@shared/administration/insights';
import { Role } from '@shared/roles';
import { currentUser, fakeServer, renderPage } from '@/test/fake-server';
import { OrganisationsGlancePage } from './OrganisationsGlancePage';

vi.setConfig({ testTimeout: 20_000 });

const row = (id: number, name: string, patch: Partial<OrganisationGlance>): OrganisationGlance => ({
  organisationId: id,
  name,
  activeUsers: 10,
  allowedUsers: 20,
  mfaAdoption: { enrolled: 5, total: 10 },
  ssoEnabled: false,
  lastSignInAt: null,
  signInTrend: Array.from({ length: 30 }, () => 1),
  ...patch,
});

const rows = [
  row(1, 'Beta', { mfaAdoption: { enrolled: 9, total: 10 }, ssoEnabled: true }),
  row(2, 'alpha', { activeUsers: 19 }),
  row(3, 'Gamma', { signInTrend: Array.from({ length: 30 }, () => 3), lastSignInAt: new Date().toISOString() }),
];

const names = () => screen.getAllByTestId('glance-row').map((r) => within(r).getAllByRole('cell')[0].textContent);

describe('OrganisationsGlancePage (docs/product-rules.md §10)', () => {
  it('lists every organisation by name, sorts by any column, and links each to its insights', async () => {
    fakeServer({
      'GET api/users/current': { body: currentUser([Role.E_SUPPORT]) },
      'GET api/insights/organisations': { body: rows },
    });
    renderPage('/users/insights/organisations', '/users/insights/organisations', <OrganisationsGlancePage />);
    await screen.findByTestId('glance-table');
    expect(names()).toEqual(['alpha', 'Beta', 'Gamma']);
    await userEvent.click(screen.getByRole('button', { name: /MFA adoption/ }));
    expect(names()).toEqual(['Beta', 'alpha', 'Gamma']);
    expect(screen.getByRole('columnheader', { name: /MFA adoption/ })).toHaveAttribute('aria-sort', 'descending');
    await userEvent.click(screen.getByRole('button', { name: /MFA adoption/ }));
    expect(names()).toEqual(['alpha', 'Gamma', 'Beta']);
    await userEvent.click(screen.getByRole('button', { name: /Seats used/ }));
    expect(names()).toEqual(['alpha', 'Beta', 'Gamma']);
    await userEvent.click(screen.getByRole('button', { name: /Sign-ins, last 30 days/ }));
    expect(names()[0]).toBe('Gamma');
    const gamma = screen.getAllByTestId('glance-row')[0];
    expect(within(gamma).getByText('90')).toBeInTheDocument();
    expect(within(gamma).getByRole('link', { name: 'Gamma' })).toHaveAttribute(
      'href',
      '/users/insights?organisationId=3',
    );
    expect(within(screen.getAllByTestId('glance-row')[1]).getByText('On')).toBeInTheDocument();
  });
});
