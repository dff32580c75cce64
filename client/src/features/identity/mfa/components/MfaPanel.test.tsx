import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Role } from '@shared/roles';
import { LOGOUT_REASON_KEY } from '@/lib/auth-storage';
import { currentUser, fakeServer, renderPage } from '@/test/fake-server';
import { maskCode } from '../mfa-texts';
import { MfaPanel } from './MfaPanel';

const ENROLMENT = {
  secret: { base32: 'JBSWY3DPEHPK3PXP', otpauth_url: 'otpauth://totp/Tax%20Portal:ada?secret=JBSWY3DPEHPK3PXP' },
  qrCode: 'data:image/png;base64,iVBORw0KGgo=',
};
type R = { status?: number; body?: unknown };

function setup(enabled: boolean, replies: { enable?: R; verify?: R | (() => Promise<R>); disable?: R } = {}) {
  const server = fakeServer({
    'GET api/users/current': { body: currentUser([Role.VIEWER]) },
    'POST mfa/enable': replies.enable ?? { body: ENROLMENT },
    'POST mfa/verify': (replies.verify as R) ?? { body: { success: true } },
    'POST mfa/disable': replies.disable ?? { body: { success: true } },
    'POST auth/logout': { body: { success: true } },
  });
  renderPage('/p', '/p', <MfaPanel isMFAEnabled={enabled} />);
  return server;
}

describe('MFA panel', () => {
  it('masks the code to six digits (999999)', () => {
    expect(maskCode('12a3 45-678')).toBe('123456');
  });

  it("enrols: 'Enabling MFA' with the QR code, the setup key to copy, a 6-digit code, then an alert and logout", async () => {
    const { calls } = setup(false);
    expect(screen.getByTestId('mfa-status')).toHaveTextContent('Disabled');
    await userEvent.click(screen.getByRole('button', { name: 'Enable' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enabling MFA' });
    expect(within(dialog).getByText('Step I')).toBeInTheDocument();
    expect(within(dialog).getByText('Step II')).toBeInTheDocument();
    expect(await within(dialog).findByAltText('MFA QR code')).toHaveAttribute('src', ENROLMENT.qrCode);
    await userEvent.click(within(dialog).getByRole('button', { name: /Show setup key/ }));
    expect(within(dialog).getByTestId('mfa-setup-key')).toHaveTextContent('JBSWY3DPEHPK3PXP');
    expect(within(dialog).getByRole('button', { name: 'Copy setup key' })).toBeInTheDocument();

    const input = within(dialog).getByLabelText('Enter the 6-digit code from your authenticator app');
    await userEvent.type(input, '12ab');
    expect(input).toHaveValue('12');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(within(dialog).getByTestId('mfa-code-error')).toHaveTextContent('MFA must contain exactly 6 digits');
    expect(calls.filter((c) => c.path === 'mfa/verify')).toHaveLength(0);

    await userEvent.type(input, '34567');
    expect(input).toHaveValue('123456');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    const alert = await screen.findByRole('alertdialog');
    expect(alert).toHaveTextContent(
      'MFA has been successfully enabled. Please log in again using your new authenticator.',
    );
    expect(calls.find((c) => c.path === 'mfa/verify')!.body).toEqual({ token: '123456' });
    await userEvent.click(within(alert).getByRole('button', { name: 'OK' }));
    await waitFor(() =>
      expect(sessionStorage.getItem(LOGOUT_REASON_KEY)).toBe('Logged out as MFA enabled or disabled'),
    );
  });

  it('shows a wrong code under the field', async () => {
    setup(false, { verify: { status: 400, body: { success: false, message: 'The MFA code is not valid.' } } });
    await userEvent.click(screen.getByRole('button', { name: 'Enable' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enabling MFA' });
    await userEvent.type(
      await within(dialog).findByLabelText('Enter the 6-digit code from your authenticator app'),
      '000000',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByTestId('mfa-code-error')).toHaveTextContent('The MFA code is not valid.');
    expect(sessionStorage.getItem(LOGOUT_REASON_KEY)).toBeNull();
  });

  it("reads 'Loading...' on the confirm button while the code is checked", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    setup(false);
    const original = globalThis.fetch;
    globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).includes('mfa/verify')) await gate;
      return original(input, init);
    }) as typeof fetch;
    await userEvent.click(screen.getByRole('button', { name: 'Enable' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enabling MFA' });
    await userEvent.type(
      await within(dialog).findByLabelText('Enter the 6-digit code from your authenticator app'),
      '123456',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByRole('button', { name: 'Loading...' })).toBeDisabled();
    release();
    expect(await screen.findByRole('alertdialog')).toBeInTheDocument();
  });

  it("shows 'Error: {message}' when the enrolment cannot start", async () => {
    setup(false, { enable: { status: 500, body: { success: false, message: 'Service unavailable' } } });
    await userEvent.click(screen.getByRole('button', { name: 'Enable' }));
    expect(await screen.findByText('Error: Service unavailable')).toBeInTheDocument();
  });

  it('disables after confirming and entering a code, then alerts and logs out', async () => {
    const { calls } = setup(true);
    expect(screen.getByTestId('mfa-status')).toHaveTextContent('Enabled');
    await userEvent.click(screen.getByRole('button', { name: 'Disable' }));
    expect(await screen.findByText('Are you sure you want to disable MFA?')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Yes' }));
    const dialog = await screen.findByTestId('disable-mfa-dialog');
    await userEvent.type(within(dialog).getByLabelText('MFA code'), '654321');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    const alert = await screen.findByText('MFA has been disabled. Please log in again.');
    expect(calls.find((c) => c.path === 'mfa/disable')!.body).toEqual({ token: '654321' });
    await userEvent.click(
      within(alert.closest('[role="alertdialog"]') as HTMLElement).getByRole('button', { name: 'OK' }),
    );
    await waitFor(() =>
      expect(sessionStorage.getItem(LOGOUT_REASON_KEY)).toBe('Logged out as MFA enabled or disabled'),
    );
  });

  it('keeps MFA on when the confirmation is declined', async () => {
    const { calls } = setup(true);
    await userEvent.click(screen.getByRole('button', { name: 'Disable' }));
    await userEvent.click(await screen.findByRole('button', { name: 'No' }));
    await waitFor(() => expect(screen.queryByText('Are you sure you want to disable MFA?')).not.toBeInTheDocument());
    expect(calls.filter((c) => c.method !== 'GET' && c.path.startsWith('mfa/'))).toHaveLength(0);
  });
});

/** Recovery codes and trusted devices in the panel. */
describe('MFA panel: recovery codes and trusted devices', () => {
  const CODES = Array.from({ length: 10 }, (_, i) => `abcd${i}-efgh${i}`);
  const DEVICE = {
    id: 7,
    label: 'Chrome on Windows',
    createdAt: '2026-11-20T10:00:00.000Z',
    lastUsedAt: null,
    expiresAt: '2026-12-20T10:00:00.000Z',
  };

  it('after enrolment shows the ten codes once, with Copy and Download as .txt, then the alert and logout', async () => {
    fakeServer({
      'GET api/users/current': { body: currentUser([Role.VIEWER]) },
      'POST mfa/enable': { body: ENROLMENT },
      'POST mfa/verify': { body: { success: true, recoveryCodes: CODES } },
      'POST auth/logout': { body: { success: true } },
    });
    renderPage('/p', '/p', <MfaPanel isMFAEnabled={false} />);
    await userEvent.click(screen.getByRole('button', { name: 'Enable' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enabling MFA' });
    await userEvent.type(
      await within(dialog).findByLabelText('Enter the 6-digit code from your authenticator app'),
      '123456',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    const codes = await screen.findByRole('dialog', { name: 'Your recovery codes' });
    expect(
      within(codes)
        .getAllByTestId('recovery-code')
        .map((e) => e.textContent),
    ).toEqual(CODES);
    expect(within(codes).getByRole('button', { name: 'Copy recovery codes' })).toBeInTheDocument();
    expect(within(codes).getByRole('button', { name: 'Download as .txt' })).toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    await userEvent.click(within(codes).getByRole('button', { name: 'I have saved my recovery codes' }));
    const alert = await screen.findByRole('alertdialog');
    await userEvent.click(within(alert).getByRole('button', { name: 'OK' }));
    await waitFor(() =>
      expect(sessionStorage.getItem(LOGOUT_REASON_KEY)).toBe('Logged out as MFA enabled or disabled'),
    );
  });

  it('shows how many codes are left; "Regenerate recovery codes" asks for a TOTP and shows the new codes', async () => {
    let remaining = 3;
    const { calls } = fakeServer({
      'GET api/users/current': { body: currentUser([Role.VIEWER]) },
      'GET mfa/recovery-codes': () => ({ body: { remaining } }),
      'GET mfa/trusted-devices': { body: [] },
      'POST mfa/recovery-codes': (call) => {
        if ((call.body as { token: string }).token !== '111111')
          return {
            status: 400,
            body: { success: false, code: 'INVALID_MFA_TOKEN', message: 'The code is not valid.' },
          };
        remaining = 10;
        return { body: { codes: CODES } };
      },
    });
    renderPage('/p', '/p', <MfaPanel isMFAEnabled />);
    expect(await screen.findByText('3 recovery codes left')).toBeInTheDocument();
    expect(await screen.findByTestId('no-trusted-devices')).toHaveTextContent('No trusted devices');
    await userEvent.click(screen.getByRole('button', { name: 'Regenerate recovery codes' }));
    const dialog = await screen.findByTestId('regenerate-codes-dialog');
    const input = within(dialog).getByLabelText('Enter the 6-digit code from your authenticator app');
    await userEvent.type(input, '222222');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByTestId('mfa-code-error')).toHaveTextContent('The code is not valid.');
    await userEvent.clear(input);
    await userEvent.type(input, '111111');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    const codes = await screen.findByRole('dialog', { name: 'Your recovery codes' });
    expect(within(codes).getAllByTestId('recovery-code')).toHaveLength(10);
    await userEvent.click(within(codes).getByRole('button', { name: 'I have saved my recovery codes' }));
    expect(await screen.findByText('10 recovery codes left')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST' && c.path === 'mfa/recovery-codes').map((c) => c.body)).toEqual([
      { token: '222222' },
      { token: '111111' },
    ]);
  });

  it('lists trusted devices; Revoke one and Revoke all (after a confirmation)', async () => {
    let devices = [DEVICE, { ...DEVICE, id: 8, label: 'Firefox on Linux', lastUsedAt: '2026-11-21T10:00:00.000Z' }];
    const { calls } = fakeServer({
      'GET api/users/current': { body: currentUser([Role.VIEWER]) },
      'GET mfa/recovery-codes': { body: { remaining: 10 } },
      'GET mfa/trusted-devices': () => ({ body: devices }),
      'DELETE mfa/trusted-devices/7': () => (
        (devices = devices.filter((d) => d.id !== 7)),
        { body: { success: true } }
      ),
      'DELETE mfa/trusted-devices': () => ((devices = []), { body: { success: true, revoked: 1 } }),
    });
    renderPage('/p', '/p', <MfaPanel isMFAEnabled />);
    expect(await screen.findAllByTestId('trusted-device-row')).toHaveLength(2);
    await userEvent.click(screen.getByRole('button', { name: 'Revoke Chrome on Windows' }));
    await waitFor(() => expect(screen.getAllByTestId('trusted-device-row')).toHaveLength(1));
    await userEvent.click(screen.getByRole('button', { name: 'Revoke all' }));
    expect(await screen.findByText('Are you sure you want to revoke all trusted devices?')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Yes' }));
    expect(await screen.findByTestId('no-trusted-devices')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([
      'mfa/trusted-devices/7',
      'mfa/trusted-devices',
    ]);
  });
});
