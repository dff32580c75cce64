import { useState } from 'react';
import { useMutation, type UseMutationOptions } from '@tanstack/react-query';
import { ConfirmDialog } from './confirm-dialog';

/**
 * An action on one item of a list that asks first (revoke, rotate, remove): `ask(item)` opens the question that
 * `<ConfirmActionDialog action={…} />` shows; yes runs the mutation, whose success closes the question.
 */
export function useConfirmedAction<TItem, TData = unknown>(options: UseMutationOptions<TData, Error, TItem>) {
  const [asking, setAsking] = useState<TItem | null>(null);
  const mutation = useMutation<TData, Error, TItem>({
    ...options,
    onSuccess: (...args) => {
      setAsking(null);
      return options.onSuccess?.(...args);
    },
  });
  return { asking, ask: setAsking, close: () => setAsking(null), mutation };
}

interface ConfirmedAction<TItem> {
  asking: TItem | null;
  close: () => void;
  mutation: { isPending: boolean; mutate: (item: TItem) => void };
}

/** The question of a `useConfirmedAction`: `message` asks it about the item; Cancel unless `cancelLabel`. */
export function ConfirmActionDialog<TItem>({
  action: { asking, mutation, close },
  message,
  cancelLabel = 'Cancel',
  ...texts
}: {
  action: ConfirmedAction<TItem>;
  title: string;
  message: (item: TItem) => string;
  confirmLabel: string;
  cancelLabel?: string;
}) {
  return (
    <ConfirmDialog
      {...texts}
      open={asking !== null}
      message={asking === null ? '' : message(asking)}
      cancelLabel={cancelLabel}
      loading={mutation.isPending}
      onConfirm={() => asking !== null && mutation.mutate(asking)}
      onClose={close}
    />
  );
}
