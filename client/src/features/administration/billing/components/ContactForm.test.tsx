import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { ContactProfile } from '@shared/api-types';
import { Role } from '@shared/roles';
import { currentUser, fakeServer, renderPage } from '@/test/fake-server';
import { BillingPage } from './BillingPage';

// Typing is slow on the shared machine.
vi.setConfig({ testTimeout: 20_000 });

const saved: ContactProfile = {
  id: 7,
  fullName: 'Ada Lovelace',
  jobTitle: 'CFO',
  department: 'Finance',
  basedIn: 'Sydney',
  email: 'ada@example.com',
  mobile: '0400',
};

function setup(primary: { status?: number; body?: unknown }, billing: { status?: number; body?: unknown }) {
  const server = fakeServer({
    'GET api/users/current': { body: currentUser([Role.STANDARD_ADMIN]) },
    'GET api/logo/byMasterAccountId': { body: { logoPath: null } },
    'GET api/primaryBillingInformation/byMasterAccountId': primary,
    'GET api/billingInformation/byMasterAccountId': billing,
    'PUT api/primaryBillingInformation': (c) => ({ body: c.body }),
    'POST api/billingInformation': (c) => ({ status: 201, body: { ...(c.body as object), id: 9 } }),
  });
  renderPage('/users/billing', '/users/billing', <BillingPage />);
  return server;
}

const empty = { id: null, fullName: '', jobTitle: '', department: '', basedIn: '', email: '', mobile: '' };

describe('Billing page contact forms (spec 001 §2.11, §5, §8)', () => {
  it('shows the Primary Contact and Billing Contact forms and the logo uploader', async () => {
    setup({ body: saved }, { body: empty });
    expect(await screen.findByRole('heading', { name: 'Primary Contact' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Billing Contact' })).toBeInTheDocument();
    expect(screen.getByTestId('logo-uploader')).toBeInTheDocument();
  });

  it('fills the saved contact, and saves changes with PUT (id) and trimmed values', async () => {
    const server = setup({ body: saved }, { body: empty });
    const form = await screen.findByTestId('primary-contact-form');
    const name = await within(form).findByDisplayValue('Ada Lovelace');
    for (const [label, value] of [
      ['Job title', 'CFO'],
      ['Department', 'Finance'],
      ['Based in', 'Sydney'],
      ['Email', 'ada@example.com'],
      ['Mobile', '0400'],
    ]) {
      expect(within(form).getByLabelText(label)).toHaveValue(value);
    }
    await userEvent.clear(name);
    await userEvent.type(name, '  Grace Hopper  ');
    await userEvent.type(within(form).getByLabelText('Department'), '  ');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Your changes have been saved.')).toBeInTheDocument();
    expect(server.callsTo('PUT', 'api/primaryBillingInformation')[0].body).toEqual({
      ...saved,
      fullName: 'Grace Hopper',
      department: 'Finance',
    });
    expect(server.callsTo('POST', 'api/primaryBillingInformation')).toHaveLength(0);
  });

  it('disables Save while the full name is blank (also only spaces), and creates with POST when there is no id', async () => {
    const server = setup({ body: saved }, { body: empty });
    const form = await screen.findByTestId('billing-contact-form');
    const save = await within(form).findByRole('button', { name: 'Save' });
    await waitFor(() => expect(save).toBeDisabled());
    await userEvent.type(within(form).getByLabelText(/Full name/), '   ');
    expect(save).toBeDisabled();
    await userEvent.type(within(form).getByLabelText(/Full name/), 'Bill Payer');
    expect(save).toBeEnabled();
    await userEvent.click(save);
    expect(await screen.findByText('Your changes have been saved.')).toBeInTheDocument();
    const post = server.callsTo('POST', 'api/billingInformation');
    expect(post).toHaveLength(1);
    expect(post[0].body).toEqual({
      fullName: 'Bill Payer',
      jobTitle: '',
      department: '',
      basedIn: '',
      email: '',
      mobile: '',
    });
  });

  it('gives an empty form when loading fails', async () => {
    setup({ status: 500, body: { success: false, message: 'boom' } }, { body: saved });
    const form = await screen.findByTestId('primary-contact-form');
    await waitFor(() => expect(within(form).getByLabelText(/Full name/)).toHaveValue(''));
    expect(within(form).getByRole('button', { name: 'Save' })).toBeDisabled();
    expect(
      await within(screen.getByTestId('billing-contact-form')).findByDisplayValue('Ada Lovelace'),
    ).toBeInTheDocument();
  });

  it('reports a save error with the server message', async () => {
    const server = setup({ body: saved }, { body: empty });
    server.calls.length = 0;
    const form = await screen.findByTestId('primary-contact-form');
    await within(form).findByDisplayValue('Ada Lovelace');
    fakeServer({
      'PUT api/primaryBillingInformation': {
        status: 400,
        body: { success: false, message: 'Please enter a valid email' },
      },
    });
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Please enter a valid email')).toBeInTheDocument();
  });
});
