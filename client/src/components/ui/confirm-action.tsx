import { useState } from 'react';
import { useMutation, type UseMutationOptions } from '@tanstack/react-query';
import { ConfirmDialog } from './confirm-dialog';

/** What an action asks before it runs: a title, the question about the item, and its yes button. */
export interface ActionQuestion<TItem> {
  title: string;
  message: (item: TItem) => string;
  confirmLabel: string;
  /** 'Cancel' unless given. */
  cancelLabel?: string;
}

/**
 * An action on one item of a list that asks first (revoke, rotate, remove): `ask(item)` opens `question` in
 * `dialog` (render it once); yes runs the mutation on the item, and its success closes the question.
 */
export function useConfirmedAction<TItem, TData = unknown>({
  question,
  ...options
}: UseMutationOptions<TData, Error, TItem> & { question: ActionQuestion<TItem> }) {
  const [asking, setAsking] = useState<TItem | null>(null);
  const mutation = useMutation<TData, Error, TItem>({
    ...options,
    onSuccess: (...args) => {
      setAsking(null);
      return options.onSuccess?.(...args);
    },
  });
  const { message, cancelLabel = 'Cancel', ...texts } = question;
  const dialog = (
    <ConfirmDialog
      {...texts}
      open={asking !== null}
      message={asking === null ? '' : message(asking)}
      cancelLabel={cancelLabel}
      loading={mutation.isPending}
      onConfirm={() => asking !== null && mutation.mutate(asking)}
      onClose={() => setAsking(null)}
    />
  );
  return { asking, ask: setAsking, mutation, dialog };
}
