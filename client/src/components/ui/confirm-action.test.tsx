import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderAt } from '@/test/render';
import { useConfirmedAction } from './confirm-action';

interface Item {
  id: number;
  name: string;
}

function List({ run, done }: { run: (item: Item) => Promise<unknown>; done: () => void }) {
  const remove = useConfirmedAction({
    mutationFn: run,
    onSuccess: done,
    onError: () => undefined,
    question: { title: 'Remove item', message: (item) => `Remove "${item.name}"?`, confirmLabel: 'Remove' },
  });
  return (
    <>
      <button onClick={() => remove.ask({ id: 7, name: 'Seven' })}>Remove Seven</button>
      {remove.dialog}
    </>
  );
}

describe('useConfirmedAction', () => {
  it('asks about the item first, runs the action on it when confirmed, and closes once it succeeded', async () => {
    const run = vi.fn((_item: Item) => Promise.resolve());
    const done = vi.fn();
    renderAt(<List run={run} done={done} />);
    await userEvent.click(screen.getByRole('button', { name: 'Remove Seven' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Remove item' });
    expect(dialog).toHaveTextContent('Remove "Seven"?');
    expect(run).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(run.mock.calls[0][0]).toEqual({ id: 7, name: 'Seven' });
    expect(done).toHaveBeenCalledTimes(1);
  });

  it('keeps the question open when the action fails, and Cancel closes it without running it', async () => {
    const run = vi.fn(() => Promise.reject(new Error('refused')));
    renderAt(<List run={run} done={() => undefined} />);
    await userEvent.click(screen.getByRole('button', { name: 'Remove Seven' }));
    await screen.findByRole('alertdialog');
    await userEvent.click(screen.getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(run).toHaveBeenCalledTimes(1));
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(run).toHaveBeenCalledTimes(1);
  });
});
