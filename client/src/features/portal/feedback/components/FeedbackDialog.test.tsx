import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Role } from '@shared/roles';
import { authState, renderAt, signedIn } from '@/test/shell';
import { fakeServer } from '@/test/fake-server';
import { FeedbackDialog } from './FeedbackDialog';

vi.mock('@/lib/auth', async (importOriginal) => {
  const { authState: state } = await import('@/test/shell');
  return { ...(await importOriginal<object>()), useAuth: () => state.current };
});

describe('Feedback dialog (spec 001 §2.9, §5, §8)', () => {
  beforeEach(() => {
    authState.current = signedIn([Role.ANALYST]);
  });

  it('requires a title and content, with the specification messages; Submit is disabled while invalid', async () => {
    fakeServer({});
    const onClose = vi.fn();
    renderAt(<FeedbackDialog open onClose={onClose} />);
    const dialog = await screen.findByTestId('feedback-dialog');
    const submit = within(dialog).getByRole('button', { name: 'Submit' });
    expect(submit).toBeDisabled();
    expect(within(dialog).getByLabelText(/Content/)).toHaveAttribute('rows', '10');
    fireEvent.blur(within(dialog).getByLabelText(/Title/));
    expect(await within(dialog).findByText('Please type in a title.')).toBeInTheDocument();
    fireEvent.blur(within(dialog).getByLabelText(/Content/));
    expect(await within(dialog).findByText('Please type in some content.')).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText(/Title/), 'Idea');
    expect(submit).toBeDisabled();
    await userEvent.type(within(dialog).getByLabelText(/Content/), '   ');
    expect(submit).toBeDisabled();
    await userEvent.type(within(dialog).getByLabelText(/Content/), 'More filters');
    expect(submit).toBeEnabled();
  });

  it('sends title, content and userId, thanks the user and closes', async () => {
    const { calls } = fakeServer({ 'POST /api/userFeedback/add': { status: 200, body: { success: true, id: 1 } } });
    const onClose = vi.fn();
    renderAt(<FeedbackDialog open onClose={onClose} />);
    const dialog = await screen.findByTestId('feedback-dialog');
    await userEvent.type(within(dialog).getByLabelText(/Title/), ' Idea ');
    await userEvent.type(within(dialog).getByLabelText(/Content/), 'More filters');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Thank you. Your feedback has been received.')).toBeInTheDocument();
    expect(calls.find((c) => c.url === '/api/userFeedback/add')?.body).toEqual({
      title: 'Idea',
      content: 'More filters',
      userId: 7,
    });
    expect(onClose).toHaveBeenCalled();
  });

  it("shows the server's message in an error toast and closes", async () => {
    fakeServer({
      'POST /api/userFeedback/add': {
        status: 400,
        body: { success: false, statusCode: 400, message: 'Please type in a title.' },
      },
    });
    const onClose = vi.fn();
    renderAt(<FeedbackDialog open onClose={onClose} />);
    const dialog = await screen.findByTestId('feedback-dialog');
    await userEvent.type(within(dialog).getByLabelText(/Title/), 'x');
    await userEvent.type(within(dialog).getByLabelText(/Content/), 'y');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));
    await waitFor(() =>
      expect(
        screen
          .getAllByTestId('toast')
          .some((t) => t.dataset.type === 'error' && t.textContent?.includes('Please type in a title.')),
      ).toBe(true),
    );
    expect(onClose).toHaveBeenCalled();
  });
});
