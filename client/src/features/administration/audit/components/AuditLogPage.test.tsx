import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AuditEventItem } from '@shared/audit';
import { Role } from '@shared/roles';
import { currentUser, fakeServer, renderPage } from '@/test/fake-server';
import { auditApi, auditSearch } from '../api/audit-api';
import { AuditLogPage, EMPTY_AUDIT_FILTER, toAuditQuery } from './AuditLogPage';

describe('audit log filters', () => {
  it('sends only the filters that are set', () => {
    expect(toAuditQuery(EMPTY_AUDIT_FILTER, '')).toEqual({});
    const q = toAuditQuery({ ...EMPTY_AUDIT_FILTER, type: 'ROLE_CHANGED', actorId: '7' }, 'x@y');
    expect(auditSearch({ ...q, page: 2, pageSize: 25 })).toBe(
      '?type=ROLE_CHANGED&actorId=7&searchText=x%40y&page=2&pageSize=25',
    );
  });

  it("sends picked days as the instants of the user's local day", () => {
    const q = toAuditQuery({ ...EMPTY_AUDIT_FILTER, from: '2026-01-01', to: '2026-01-01' }, '');
    expect(new Date(q.from!).getTime()).toBe(new Date(2026, 0, 1).getTime());
    expect(new Date(q.to!).getTime()).toBe(new Date(2026, 0, 2).getTime() - 1);
  });

  it('exports with the same filters, without paging', () => {
    expect(auditApi.exportPath({ type: 'LOGOUT', page: 3, pageSize: 100 })).toBe('api/audit-events/export?type=LOGOUT');
  });
});

describe('audit log rows', () => {
  const event = (id: number, ip: string | null): AuditEventItem => ({
    id,
    occurredAt: new Date(2026, 11, 2, 3, 58, 0).toISOString(),
    type: 'SIGN_IN_SUCCEEDED',
    actorKind: 'user',
    actorId: 7,
    actorEmail: 'ada@example.com',
    actorOrganisationId: 1,
    targetId: null,
    targetEmail: null,
    targetOrganisationId: null,
    organisationId: 1,
    ip,
    userAgent: 'Mozilla/5.0',
    summary: 'Signed in',
    changes: null,
    onBehalfOfId: null,
    onBehalfOfEmail: null,
    supportAccessId: null,
  });

  it("shows the time as every page does and an IPv4 client's address without the IPv6 mapping", async () => {
    const items = [event(3, '::ffff:203.0.113.9'), event(2, '2001:db8::7'), event(1, null)];
    fakeServer({
      'GET api/users/current': { body: currentUser([Role.SITE_ADMIN]) },
      'GET auth/organisation': { body: { users: [], allowedUsersNumber: 5, isSSOEnabled: false } },
      'GET api/audit-events': { body: { items, totalRecords: 3, totalIsCapped: false, page: 1, pageSize: 25 } },
    });
    renderPage('/users/audit', '/users/audit', <AuditLogPage />);
    const rows = await screen.findAllByTestId('audit-row');
    expect(rows[0]).toHaveTextContent('Wed, 2 Dec 2026, 3:58:00 AM');
    expect(within(rows[0]).getByText('203.0.113.9')).toBeInTheDocument();
    expect(within(rows[1]).getByText('2001:db8::7')).toBeInTheDocument();
    expect(within(rows[2]).getAllByText('—').length).toBeGreaterThan(0);
    await userEvent.click(within(rows[0]).getByRole('button', { name: 'Show details' }));
    expect(await screen.findByTestId('audit-details')).toHaveTextContent('Address: 203.0.113.9 ·');
    expect(screen.getByTestId('audit-table')).not.toHaveTextContent('::ffff:');
  });

  it('opens on one support-access request (?supportAccessId=) and names the member the E-Support account acted as', async () => {
    const acted: AuditEventItem = {
      ...event(4, null),
      actorEmail: 'help@vendor.test',
      onBehalfOfId: 9,
      onBehalfOfEmail: 'mia@acme.test',
      supportAccessId: 5,
    };
    const server = fakeServer({
      'GET api/users/current': { body: currentUser([Role.SITE_ADMIN]) },
      'GET auth/organisation': { body: { users: [], allowedUsersNumber: 5, isSSOEnabled: false } },
      'GET api/audit-events': {
        body: { items: [acted], totalRecords: 1, totalIsCapped: false, page: 1, pageSize: 25 },
      },
    });
    renderPage('/users/audit?supportAccessId=5', '/users/audit', <AuditLogPage />);
    const [row] = await screen.findAllByTestId('audit-row');
    expect(row).toHaveTextContent('help@vendor.test as mia@acme.test');
    expect(server.calls.find((c) => c.path.startsWith('api/audit-events'))!.path).toContain('supportAccessId=5');
    expect(screen.getByRole('textbox', { name: 'Support access request' })).toHaveValue('5');
    await userEvent.click(within(row).getByRole('button', { name: 'Show details' }));
    expect(await screen.findByTestId('audit-details')).toHaveTextContent(
      'On behalf of: mia@acme.test (support access #5)',
    );
  });
});
