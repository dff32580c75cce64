import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Role } from '@shared/roles';
import { containsDangerousMarkup, validateContactMessage } from '@shared/portal/shell';
import { authState, renderAt, signedIn, signedOut } from '@/test/shell';
import { fakeServer } from '@/test/fake-server';
import { ContactDialog } from './ContactDialog';

// Typing through user-event is slow on a loaded machine: a wide limit, so only a real failure fails.
vi.setConfig({ testTimeout: 30_000 });

vi.mock('@/lib/auth', async (importOriginal) => {
  const { authState: state } = await import('@/test/shell');
  return { ...(await importOriginal<object>()), useAuth: () => state.current };
});

const field = (dialog: HTMLElement, label: string) => within(dialog).getByLabelText(new RegExp(`^${label}`));

describe('Contact Us dialog (spec 001 §2.10, §5, §8)', () => {
  beforeEach(() => {
    authState.current = signedIn([Role.VIEWER]);
  });

  it('is pre-filled from the current user, 800px wide at most 90vw, with an 8-row message', async () => {
    fakeServer({});
    renderAt(<ContactDialog open onClose={() => {}} />);
    const dialog = await screen.findByTestId('contact-dialog');
    expect(field(dialog, 'Name')).toHaveValue('Ada Lovelace');
    expect(field(dialog, 'Email')).toHaveValue('ada@example.com');
    expect(field(dialog, 'Message')).toHaveAttribute('rows', '8');
    expect(dialog).toHaveStyle({ width: '800px', maxWidth: '90vw' });
  });

  it('an invalid submit marks every field touched and shows every message', async () => {
    authState.current = signedOut();
    const { calls } = fakeServer({});
    renderAt(<ContactDialog open onClose={() => {}} />);
    const dialog = await screen.findByTestId('contact-dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    for (const m of ['Name is required', 'Email is required', 'Subject is required', 'Message is required'])
      expect(within(dialog).getByText(m)).toBeInTheDocument();
    await userEvent.type(field(dialog, 'Email'), 'not an email');
    expect(within(dialog).getByText('Please enter a valid email')).toBeInTheDocument();
    await userEvent.type(field(dialog, 'Name'), 'Eve <script>');
    expect(within(dialog).getByText('Invalid characters detected')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('sends the four fields and shows the success toast', async () => {
    const { calls } = fakeServer({ 'POST /api/users/contact-email/': { status: 200, body: { success: true } } });
    const onClose = vi.fn();
    renderAt(<ContactDialog open onClose={onClose} />);
    const dialog = await screen.findByTestId('contact-dialog');
    await userEvent.type(field(dialog, 'Subject'), 'Access');
    await userEvent.type(field(dialog, 'Message'), 'Please add me to reports.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(
      await screen.findByText('Your message has been sent successfully. We will get back to you soon.'),
    ).toBeInTheDocument();
    expect(calls[0]).toMatchObject({
      method: 'POST',
      url: '/api/users/contact-email/',
      body: { name: 'Ada Lovelace', email: 'ada@example.com', subject: 'Access', message: 'Please add me to reports.' },
    });
    expect(onClose).toHaveBeenCalled();
  });

  it('sends plain text that only looks like an attribute ("Question one = yes", "online=true")', async () => {
    const { calls } = fakeServer({ 'POST /api/users/contact-email/': { status: 200, body: { success: true } } });
    renderAt(<ContactDialog open onClose={() => {}} />);
    const dialog = await screen.findByTestId('contact-dialog');
    await userEvent.click(field(dialog, 'Subject'));
    await userEvent.paste('Question one = yes');
    await userEvent.click(field(dialog, 'Message'));
    await userEvent.paste('online=true');
    expect(within(dialog).queryByText('Invalid characters detected')).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0].body).toMatchObject({ subject: 'Question one = yes', message: 'online=true' });
  });

  it('a failure shows the failure toast and keeps the form', async () => {
    fakeServer({ 'POST /api/users/contact-email/': { status: 503, body: { success: false, message: 'down' } } });
    const onClose = vi.fn();
    renderAt(<ContactDialog open onClose={onClose} />);
    const dialog = await screen.findByTestId('contact-dialog');
    await userEvent.type(field(dialog, 'Subject'), 'Access');
    await userEvent.type(field(dialog, 'Message'), 'Hello');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Failed to send message. Please try again later.')).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
  });
});

describe('the shared contact rule (src/shared/portal/shell.ts, also the server’s)', () => {
  it.each([
    '<script>alert(1)</script>',
    '< SCRIPT src=x>',
    'JavaScript:alert(1)',
    '<img src=x onerror=alert(1)>',
    '<div ONCLICK = "x">',
    '<iframe src=x>',
    '<Object data=x>',
    '<embed src=x>',
    '<svg/onload=alert(1)>',
    '<a href="x"onclick="y">',
    '<img\nsrc=x\nonerror=alert(1)',
  ])('refuses %s', (value) => {
    expect(containsDangerousMarkup(value)).toBe(true);
    expect(validateContactMessage({ name: 'a', email: 'a@b.co', subject: value, message: 'm' })).toEqual({
      subject: 'Invalid characters detected',
    });
  });

  it.each([
    'Fees < $5 and > $2',
    'Questions on object codes',
    'Embedded reports online',
    'Is the javascript library updated?',
    'Question one = yes',
    'online=true',
    'The flag is on=true and one = 1 < 2',
    '<b>online=true</b>',
  ])('accepts %s', (value) => {
    expect(containsDangerousMarkup(value)).toBe(false);
    expect(validateContactMessage({ name: 'a', email: 'a@b.co', subject: value, message: value })).toEqual({});
  });

  it('e-mail must look like name@domain.tld with no spaces', () => {
    const v = (email: string) => validateContactMessage({ name: 'a', email, subject: 's', message: 'm' }).email;
    expect(v('a@b.co')).toBeUndefined();
    expect(v('a@b')).toBe('Please enter a valid email');
    expect(v('a b@c.co')).toBe('Please enter a valid email');
    expect(v('')).toBe('Email is required');
  });
});
