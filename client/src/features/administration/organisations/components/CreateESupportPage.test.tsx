import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Role } from '@shared/roles';
import { currentUser, fakeServer, renderPage } from '@/test/fake-server';
import { CreateESupportPage } from './CreateESupportPage';

vi.setConfig({ testTimeout: 20_000 });

function setup(reply: { status?: number; body?: unknown }) {
  const server = fakeServer({
    'GET api/users/current': { body: currentUser([Role.E_SUPPORT]) },
    'GET api/support-accounts/domain': { body: { domain: 'help.vendor.test' } },
    'POST api/users/add-esupport': reply,
  });
  renderPage('/users/createESupport', '/users/createESupport', <CreateESupportPage />);
  return server;
}

const ok = {
  status: 201,
  body: { success: true, message: 'Esupport user created successfully.', userId: 3, email: 'jane@help.vendor.test' },
};

describe('CreateESupportPage (spec 001 §2.13, §5, §8)', () => {
  it('shows the fixed domain as an addon and creates the account: User Created / Esupport user created successfully.', async () => {
    const server = setup(ok);
    expect(await screen.findByText('@help.vendor.test')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(/^Email/), 'jane.doe');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('User Created')).toBeInTheDocument();
    expect(screen.getByText('Esupport user created successfully.')).toBeInTheDocument();
    expect(server.callsTo('POST', 'api/users/add-esupport')[0].body).toEqual({ userName: 'jane.doe' });
    expect(screen.getByLabelText(/^Email/)).toHaveValue('');
  });

  it("refuses '@' and '|' as they are typed, and an empty name on Confirm, without calling the server", async () => {
    const server = setup(ok);
    const input = await screen.findByLabelText(/^Email/);
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Email is required.')).toBeInTheDocument();
    await userEvent.type(input, 'jane@x');
    expect(screen.getByText('Email cannot contain forbidden characters(@ and |).')).toBeInTheDocument();
    await userEvent.clear(input);
    await userEvent.type(input, 'a|b');
    expect(screen.getByText('Email cannot contain forbidden characters(@ and |).')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(server.callsTo('POST', 'api/users/add-esupport')).toHaveLength(0);
  });

  it("shows the server's message, or 'An error occurred while creating the esupport user.'", async () => {
    setup({ status: 409, body: { success: false, message: 'A user with this email already exists.' } });
    await userEvent.type(await screen.findByLabelText(/^Email/), 'jane');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('A user with this email already exists.')).toBeInTheDocument();
  });

  it('falls back to the generic error text', async () => {
    setup({ status: 500, body: { success: false } });
    await userEvent.type(await screen.findByLabelText(/^Email/), 'jane');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('An error occurred while creating the esupport user.')).toBeInTheDocument();
  });
});
