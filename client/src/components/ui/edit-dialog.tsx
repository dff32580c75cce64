import { type ReactNode, useState } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { useMutation } from '@tanstack/react-query';
import { FormDialog } from './app-dialog';
import { toaster } from './toaster';

/**
 * Changing one item of a list in a FormDialog: `start(item)` fills `form` with `valuesOf(item)` and opens `dialog`
 * (render it once), whose submit runs `save` with the item and the form's values; a success says `texts.saved`,
 * closes the dialog and reloads the list.
 */
export function useEditDialog<TItem, TValues extends FieldValues>({
  form,
  valuesOf,
  save,
  reload,
  onError,
  fields,
  testId,
  texts,
}: {
  form: UseFormReturn<TValues>;
  valuesOf: (item: TItem) => TValues;
  save: (item: TItem, values: TValues) => Promise<unknown>;
  reload: () => Promise<unknown>;
  onError: (e: unknown) => void;
  fields: ReactNode;
  testId: string;
  texts: { title: string; saved: string; cancelLabel: string; confirmLabel: string };
}) {
  const [editing, setEditing] = useState<TItem | null>(null);
  const update = useMutation({
    mutationFn: ({ item, values }: { item: TItem; values: TValues }) => save(item, values),
    onSuccess: () => {
      toaster.create({ type: 'success', title: texts.saved });
      setEditing(null);
      void reload();
    },
    onError,
  });
  const start = (item: TItem) => {
    form.reset(valuesOf(item));
    setEditing(item);
  };
  const dialog = (
    <FormDialog
      open={editing !== null}
      onClose={() => setEditing(null)}
      title={texts.title}
      testId={testId}
      onSubmit={form.handleSubmit((values) => editing !== null && update.mutate({ item: editing, values }))}
      cancelLabel={texts.cancelLabel}
      confirmLabel={texts.confirmLabel}
      loading={update.isPending}
    >
      {fields}
    </FormDialog>
  );
  return { start, dialog };
}
