import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { InsightsReport } from '@shared/administration/insights';
import { Role } from '@shared/roles';
import { currentUser, fakeServer, renderPage } from '@/test/fake-server';
import { lastDays } from '../api/insights-api';
import { InsightsPage } from './InsightsPage';

vi.setConfig({ testTimeout: 20_000 });

const report: InsightsReport = {
  from: '2026-11-27',
  to: '2026-11-28',
  timeZone: 'Australia/Sydney',
  signIns: [
    { date: '2026-11-27', succeeded: 12, failed: 3, byMethod: { password: 9, passkey: 2, sso: 1 } },
    { date: '2026-11-28', succeeded: 5, failed: 1, byMethod: { password: 5, passkey: 0, sso: 0 } },
  ],
  activeUsers: 40,
  allowedUsers: 50,
  mfaAdoption: { enrolled: 10, total: 40 },
  peakConcurrent: 7,
  maxConcurrent: 20,
  failureReasons: [
    { code: 'WRONG_PASSWORD', count: 3 },
    { code: 'WRONG_MFA_CODE', count: 1 },
  ],
  trend: [
    { date: '2026-11-27', mfaEnrolled: 9, mfaTotal: 40, peakConcurrent: 7 },
    { date: '2026-11-28', mfaEnrolled: 10, mfaTotal: 40, peakConcurrent: 4 },
  ],
};

const cells = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((r) =>
      within(r)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    );

function setup() {
  const server = fakeServer({
    'GET api/users/current': { body: currentUser([Role.SITE_ADMIN]) },
    'GET api/insights': { body: report },
  });
  renderPage('/users/insights', '/users/insights', <InsightsPage />);
  return server;
}

describe('InsightsPage (docs/product-rules.md §10)', () => {
  it('shows the headline figures and, beside each chart, a table with the same figures', async () => {
    setup();
    const headline = await screen.findByTestId('insights-headline');
    expect(headline).toHaveTextContent('Successful sign-ins17');
    expect(headline).toHaveTextContent('Failed sign-ins4 (19 %)');
    expect(headline).toHaveTextContent('MFA adoption25 %');
    expect(headline).toHaveTextContent('Seats used40 of 50');
    expect(headline).toHaveTextContent('Peak concurrent users7 of 20');
    expect(cells(screen.getByTestId('figure-sign-ins-table'))).toEqual([
      ['27 Nov', '12', '3'],
      ['28 Nov', '5', '1'],
    ]);
    expect(cells(screen.getByTestId('figure-methods-table'))).toEqual([
      ['27 Nov', '9', '2', '1'],
      ['28 Nov', '5', '0', '0'],
    ]);
    expect(cells(screen.getByTestId('figure-failures-table'))).toEqual([
      ['Wrong e-mail or password', '3'],
      ['Wrong MFA code', '1'],
    ]);
    expect(cells(screen.getByTestId('figure-mfa-table'))).toEqual([
      ['27 Nov', '9', '40'],
      ['28 Nov', '10', '40'],
    ]);
    expect(cells(screen.getByTestId('figure-concurrent-table'))).toEqual([
      ['27 Nov', '7', '20'],
      ['28 Nov', '4', '20'],
    ]);
    // The charts are pictures of the tables: hidden from assistive technology.
    expect(screen.getByTestId('figure-sign-ins-chart')).toHaveAttribute('aria-hidden', 'true');
  });

  it('asks for the last 30 days first, then the period chosen', async () => {
    const server = setup();
    await screen.findByTestId('insights-headline');
    const { from, to } = lastDays(30);
    expect(server.callsTo('GET', 'api/insights').map((c) => c.path)).toEqual([`api/insights?from=${from}&to=${to}`]);
    await userEvent.click(screen.getByText('365 days'));
    const year = lastDays(365);
    await waitFor(() =>
      expect(server.callsTo('GET', 'api/insights').pop()?.path).toBe(`api/insights?from=${year.from}&to=${year.to}`),
    );
  });

  it('counts 7 days back from today, today included', () => {
    expect(lastDays(7, new Date(2026, 0, 3))).toEqual({ from: '2025-12-28', to: '2026-01-03' });
  });
});
