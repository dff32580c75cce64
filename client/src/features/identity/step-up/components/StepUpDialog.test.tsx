import { useState } from 'react';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Role } from '@shared/roles';
import { api, errorMessage } from '@/lib/api';
import { currentUser, fakeServer, renderPage } from '@/test/fake-server';
import { factorsOf } from './StepUpDialog';

const REQUIRED = {
  status: 403,
  body: { success: false, statusCode: 403, code: 'STEP_UP_REQUIRED', message: 'Please confirm it is you to continue.' },
};

/** A page whose button makes one sensitive call and shows how it ended. */
function SensitivePage() {
  const [result, setResult] = useState('');
  const run = () =>
    api.put('api/mfa/disableUserMfa', { userId: 5 }).then(
      () => setResult('done'),
      (e: unknown) => setResult(`failed: ${errorMessage(e, '?')}`),
    );
  return (
    <>
      <button onClick={run}>Disable User MFA</button>
      <output data-testid="result">{result}</output>
    </>
  );
}

function setup(patch = {}, refusals = 1) {
  let left = refusals;
  const server = fakeServer({ 'GET api/users/current': { body: currentUser([Role.SITE_ADMIN], patch) } });
  server.respondWith('PUT', 'api/mfa/disableUserMfa', () => (left-- > 0 ? REQUIRED : { body: { success: true } }));
  renderPage('/p', '/p', <SensitivePage />);
  return server;
}

describe("'Confirm it's you' (docs/product-rules.md §7)", () => {
  it('opens on STEP_UP_REQUIRED, confirms with the password, and retries the call once', async () => {
    const server = setup();
    server.respond('POST', 'auth/step-up', 200, { success: true, stepUpUntil: '2030-01-01T00:00:00.000Z' });
    await userEvent.click(await screen.findByRole('button', { name: 'Disable User MFA' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    expect(within(dialog).getByText('Please confirm it is you to continue.')).toBeInTheDocument();
    const password = within(dialog).getByLabelText('Password');
    // Focus on the field at open is proved in Chromium (step-up.browser.ts types before clicking anything):
    // jsdom lays nothing out, so the dialog's focus trap finds no tabbable field here.
    await userEvent.type(password, 'Correct-Horse-9{Enter}');
    await waitFor(() => expect(screen.getByTestId('result')).toHaveTextContent('done'));
    expect(server.calls.map((c) => `${c.method} ${c.path}`).filter((c) => !c.includes('users/current'))).toEqual([
      'PUT api/mfa/disableUserMfa',
      'POST auth/step-up',
      'PUT api/mfa/disableUserMfa',
    ]);
    expect(server.callsTo('POST', 'auth/step-up')[0].body).toEqual({ password: 'Correct-Horse-9' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('shows a wrong proof on the field and stays open; Cancel ends the call with the refusal, not retried', async () => {
    const server = setup();
    server.respond('POST', 'auth/step-up', 401, {
      success: false,
      statusCode: 401,
      code: 'INVALID_CREDENTIALS',
      message: 'That did not confirm it is you. Please try again.',
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Disable User MFA' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByTestId('step-up-error')).toHaveTextContent('Enter your password.');
    expect(server.callsTo('POST', 'auth/step-up')).toHaveLength(0);
    await userEvent.type(within(dialog).getByLabelText('Password'), 'wrong-one{Enter}');
    expect(await within(dialog).findByText('That did not confirm it is you. Please try again.')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() =>
      expect(screen.getByTestId('result')).toHaveTextContent('failed: Please confirm it is you to continue.'),
    );
    expect(server.callsTo('PUT', 'api/mfa/disableUserMfa')).toHaveLength(1);
  });

  it('retries only once: a second refusal is the answer', async () => {
    const server = setup({}, 2);
    server.respond('POST', 'auth/step-up', 200, { success: true, stepUpUntil: '2030-01-01T00:00:00.000Z' });
    await userEvent.click(await screen.findByRole('button', { name: 'Disable User MFA' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    await userEvent.type(within(dialog).getByLabelText('Password'), 'Correct-Horse-9{Enter}');
    await waitFor(() => expect(screen.getByTestId('result')).toHaveTextContent('failed:'));
    expect(server.callsTo('PUT', 'api/mfa/disableUserMfa')).toHaveLength(2);
  });

  it('offers the proofs the account has: a code, then a recovery code, from the keyboard', async () => {
    const server = setup({ isMFAEnabled: true });
    server.respond('POST', 'auth/step-up', 200, { success: true, stepUpUntil: '2030-01-01T00:00:00.000Z' });
    await userEvent.click(await screen.findByRole('button', { name: 'Disable User MFA' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    const choices = within(dialog).getByRole('radiogroup', { name: 'How to confirm' });
    expect(
      within(choices)
        .getAllByRole('radio')
        .map((r) => r.closest('label')?.textContent),
    ).toEqual(['Code from your authenticator app', 'Password', 'Recovery code']);
    await userEvent.type(within(dialog).getByLabelText('Authenticator code'), '123456{Enter}');
    await waitFor(() => expect(screen.getByTestId('result')).toHaveTextContent('done'));
    expect(server.callsTo('POST', 'auth/step-up')[0].body).toEqual({ mfaToken: '123456' });
  });

  it('lists passkey first, and SSO accounts confirm at their provider instead of with a password', () => {
    const user = currentUser([Role.SITE_ADMIN]);
    expect(factorsOf({ ...user, hasPasskey: true, isMFAEnabled: true })).toEqual([
      'passkey',
      'mfaToken',
      'password',
      'recoveryCode',
    ]);
    expect(factorsOf({ ...user, isSSO: true })).toEqual(['sso']);
    expect(factorsOf(user)).toEqual(['password']);
    // Single sign-on required: the provider in place of the password and passkeys.
    expect(factorsOf({ ...user, hasPasskey: true, isMFAEnabled: true }, true)).toEqual([
      'mfaToken',
      'sso',
      'recoveryCode',
    ]);
  });

  it('a password refused with SSO_REQUIRED turns the dialog to the corporate login, with the reason', async () => {
    const server = setup();
    server.respond('POST', 'auth/step-up', 403, {
      success: false,
      statusCode: 403,
      code: 'SSO_REQUIRED',
      message: 'Your organisation requires you to sign in through its single sign-on provider.',
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Disable User MFA' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    await userEvent.type(within(dialog).getByLabelText('Password'), 'Correct-Horse-9{Enter}');
    expect(
      await within(dialog).findByText('Your organisation requires you to sign in through its single sign-on provider.'),
    ).toBeInTheDocument();
    expect(within(dialog).queryByLabelText('Password')).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Continue with corporate login' })).toBeInTheDocument();
  });
});
