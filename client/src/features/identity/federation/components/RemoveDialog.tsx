import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { toaster } from '@/components/ui/toaster';
import { errorMessage } from '@/lib/api';
import { SSO_PAGE_TEXTS as T } from '../federation-texts';

/** The confirmation before a connection or a domain is removed; the outcome is said in a toast. */
export function RemoveDialog({
  open,
  title,
  message,
  removed,
  remove,
  onClose,
}: {
  open: boolean;
  title: string;
  message: string;
  /** The toast once it is gone. */
  removed: string;
  /** The removal (a react-query mutation without arguments). */
  remove: {
    isPending: boolean;
    mutate(variables: undefined, options: { onSuccess: () => void; onError: (e: Error) => void }): void;
  };
  onClose: () => void;
}) {
  return (
    <ConfirmDialog
      open={open}
      title={title}
      message={message}
      confirmLabel="Remove"
      cancelLabel="Cancel"
      loading={remove.isPending}
      onClose={onClose}
      onConfirm={() =>
        remove.mutate(undefined, {
          onSuccess: () => {
            onClose();
            toaster.create({ type: 'success', title: removed });
          },
          onError: (e) => toaster.create({ type: 'error', title: errorMessage(e, T.CHANGE_FAILED) }),
        })
      }
    />
  );
}
