import { AppDialog, DialogActions } from './app-dialog';

/** A yes/no question in a dialog ('Are you sure you want to log out?'). */
export function ConfirmDialog({
  open,
  title = 'Confirm',
  message,
  confirmLabel = 'Yes',
  cancelLabel = 'No',
  onConfirm,
  onClose,
  loading,
  finalFocusEl,
}: {
  open: boolean;
  title?: string;
  message: string;
  confirmLabel?: string;
  cancelLabel?: string;
  onConfirm: () => void;
  onClose: () => void;
  loading?: boolean;
  /** Where focus returns on close, when the element that opened the dialog is gone (a menu item). */
  finalFocusEl?: () => HTMLElement | null;
}) {
  return (
    <AppDialog
      open={open}
      onClose={onClose}
      role="alertdialog"
      finalFocusEl={finalFocusEl}
      title={title}
      closeButton
      footer={
        <DialogActions
          onCancel={onClose}
          cancelLabel={cancelLabel}
          confirmLabel={confirmLabel}
          onConfirm={onConfirm}
          loading={loading}
        />
      }
    >
      {message}
    </AppDialog>
  );
}
