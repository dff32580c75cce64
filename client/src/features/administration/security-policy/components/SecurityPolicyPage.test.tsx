import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Role } from '@shared/roles';
import type { SecurityPolicy } from '@shared/administration/security-policy';
import { currentUser, fakeServer, renderPage } from '@/test/fake-server';
import { POLICY_TEXTS as T } from '../security-policy-texts';
import { SecurityPolicyPage } from './SecurityPolicyPage';

vi.setConfig({ testTimeout: 20_000 });

const saved: SecurityPolicy = {
  mfaRequired: false,
  ssoRequired: false,
  allowedIpRanges: ['203.0.113.0/24'],
  sessionIdleMinutes: 30,
  sessionMaxHours: null,
  passwordMinLength: 8,
  selfDeletion: false,
  auditRetentionDays: 365,
  supportAccess: 'approval',
};

function setup(roles: Role[], path = '/users/security-policy') {
  const server = fakeServer({
    'GET api/users/current': { body: currentUser(roles) },
    'GET api/organisations/10/security-policy': { body: saved },
    'GET api/organisations/3/security-policy': { body: { ...saved, mfaRequired: true } },
    'GET api/announcements/organisations': { body: [{ id: 3, code: 'OTHER', name: 'Other Ltd' }] },
    'PUT api/organisations/10/security-policy': (call) => ({ body: { ...saved, ...(call.body as object) } }),
  });
  renderPage(path, '/users/security-policy', <SecurityPolicyPage />);
  return server;
}

const puts = (server: ReturnType<typeof setup>) => server.calls.filter((c) => c.method === 'PUT');

describe('SecurityPolicyPage (users/security-policy)', () => {
  it('shows the saved policy with a plain explanation of each rule', async () => {
    setup([Role.SITE_ADMIN]);
    expect(await screen.findByRole('textbox', { name: T.RANGES_LABEL })).toHaveValue('203.0.113.0/24');
    expect(screen.getByRole('textbox', { name: T.IDLE_LABEL })).toHaveValue('30');
    expect(screen.getByRole('checkbox', { name: T.MFA_LABEL })).not.toBeChecked();
    for (const help of [T.MFA_HELP, T.SSO_HELP, T.RANGES_HELP, T.IDLE_HELP, T.MAX_HELP, T.LENGTH_HELP])
      expect(screen.getByText(help)).toBeInTheDocument();
  });

  it('saves only the fields changed, and says so', async () => {
    const server = setup([Role.SITE_ADMIN]);
    await userEvent.click(await screen.findByRole('checkbox', { name: T.MFA_LABEL }));
    const length = screen.getByRole('textbox', { name: new RegExp(T.LENGTH_LABEL) });
    await userEvent.clear(length);
    await userEvent.type(length, '14');
    await userEvent.click(screen.getByRole('button', { name: T.SAVE }));
    await waitFor(() => expect(puts(server)).toHaveLength(1));
    expect(puts(server)[0].body).toEqual({ mfaRequired: true, passwordMinLength: 14 });
    expect(await screen.findByText(T.SAVED)).toBeInTheDocument();
  });

  it('lets members delete their own account and sets how long audit events are kept (30 days to 7 years)', async () => {
    const server = setup([Role.SITE_ADMIN]);
    const retention = await screen.findByRole('textbox', { name: new RegExp(T.RETENTION_LABEL) });
    expect(retention).toHaveValue('365');
    expect(screen.getByText(T.RETENTION_HELP)).toBeInTheDocument();
    await userEvent.clear(retention);
    await userEvent.type(retention, '29');
    await userEvent.click(screen.getByRole('button', { name: T.SAVE }));
    expect(await screen.findByText(T.wholeNumber(30, 2555, false))).toBeInTheDocument();
    expect(puts(server)).toHaveLength(0);
    await userEvent.clear(retention);
    await userEvent.type(retention, '730');
    await userEvent.click(screen.getByRole('checkbox', { name: T.SELF_DELETION_LABEL }));
    await userEvent.click(screen.getByRole('button', { name: T.SAVE }));
    await waitFor(() => expect(puts(server)).toHaveLength(1));
    expect(puts(server)[0].body).toEqual({ selfDeletion: true, auditRetentionDays: 730 });
  });

  it('refuses numbers out of range before sending anything', async () => {
    const server = setup([Role.SITE_ADMIN]);
    const idle = await screen.findByRole('textbox', { name: T.IDLE_LABEL });
    await userEvent.clear(idle);
    await userEvent.type(idle, '4');
    await userEvent.click(screen.getByRole('button', { name: T.SAVE }));
    expect(await screen.findByText(T.wholeNumber(5, 1440, true))).toBeInTheDocument();
    expect(puts(server)).toHaveLength(0);
  });

  it("shows the server's refusal (a policy that would lock the caller out)", async () => {
    const server = setup([Role.SITE_ADMIN]);
    const message = 'These address ranges do not include the address you are using now.';
    server.respond('PUT', 'api/organisations/10/security-policy', 400, {
      success: false,
      statusCode: 400,
      code: 'POLICY_LOCKS_YOU_OUT',
      message,
    });
    const ranges = await screen.findByRole('textbox', { name: T.RANGES_LABEL });
    await userEvent.clear(ranges);
    await userEvent.type(ranges, '10.0.0.0/8');
    await userEvent.click(screen.getByRole('button', { name: T.SAVE }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(puts(server)[0].body).toEqual({ allowedIpRanges: ['10.0.0.0/8'] });
  });

  it('administrators read it without a save button', async () => {
    setup([Role.STANDARD_ADMIN, Role.ADMINISTRATOR]);
    await screen.findByRole('textbox', { name: T.RANGES_LABEL });
    expect(screen.getByText(T.READ_ONLY)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: T.SAVE })).not.toBeInTheDocument();
  });

  it('support access: the site admin chooses never, approval or always; only that field is sent', async () => {
    const server = setup([Role.SITE_ADMIN]);
    const field = await screen.findByRole('combobox', { name: T.SUPPORT_ACCESS_LABEL });
    expect(field).toHaveValue('approval');
    expect(screen.getByText(T.SUPPORT_ACCESS_HELP)).toBeInTheDocument();
    await userEvent.selectOptions(field, 'never');
    await userEvent.click(screen.getByRole('button', { name: T.SAVE }));
    await waitFor(() => expect(puts(server)).toHaveLength(1));
    expect(puts(server)[0].body).toEqual({ supportAccess: 'never' });
  });

  it("support access is the organisation's own choice: E-Support sees it, disabled, for another organisation", async () => {
    setup([Role.E_SUPPORT], '/users/security-policy?organisationId=3');
    const field = await screen.findByRole('combobox', { name: T.SUPPORT_ACCESS_LABEL });
    expect(field).toBeDisabled();
    expect(screen.getByText(T.SUPPORT_ACCESS_OWN_ONLY)).toBeInTheDocument();
  });

  it('E-Support picks the organisation', async () => {
    const server = setup([Role.E_SUPPORT]);
    const picker = await screen.findByTestId('security-policy-organisation');
    await screen.findByRole('option', { name: 'Other Ltd (OTHER)' });
    await userEvent.selectOptions(picker, '3');
    await waitFor(() => expect(screen.getByRole('checkbox', { name: T.MFA_LABEL })).toBeChecked());
    expect(server.calls.some((c) => c.path === 'api/organisations/3/security-policy')).toBe(true);
  });
});
