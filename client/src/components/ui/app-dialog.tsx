import { FormEventHandler, ReactNode } from 'react';
import { Button, CloseButton, Dialog, Portal } from '@chakra-ui/react';

/**
 * The one dialog frame of the app: backdrop, centred content, a title, a body and a footer, closed by Escape,
 * the backdrop (unless `closeOnInteractOutside` is false) or `onClose`. With `onSubmit`, header, body and footer
 * sit in a `<form>` (Enter submits; `noValidate` leaves validation to the form's own rules).
 */
export function AppDialog({
  open,
  onClose,
  title,
  children,
  footer,
  testId,
  role,
  size,
  closeOnInteractOutside,
  finalFocusEl,
  initialFocusEl,
  closeButton,
  onSubmit,
  noValidate,
  width,
  maxWidth,
}: {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  footer: ReactNode;
  testId?: string;
  role?: Dialog.RootProps['role'];
  size?: Dialog.RootProps['size'];
  closeOnInteractOutside?: boolean;
  /** Where focus returns on close, when the element that opened the dialog is gone (a menu item). */
  finalFocusEl?: () => HTMLElement | null;
  /** Where focus goes on open, when not the dialog itself (the one field of a short form). */
  initialFocusEl?: () => HTMLElement | null;
  /** A small × in the corner. */
  closeButton?: boolean;
  onSubmit?: FormEventHandler<HTMLFormElement>;
  noValidate?: boolean;
  width?: string;
  maxWidth?: string;
}) {
  const sections = (
    <>
      <Dialog.Header>
        <Dialog.Title>{title}</Dialog.Title>
      </Dialog.Header>
      <Dialog.Body>{children}</Dialog.Body>
      <Dialog.Footer>{footer}</Dialog.Footer>
    </>
  );
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(e) => !e.open && onClose()}
      placement="center"
      finalFocusEl={finalFocusEl}
      {...(initialFocusEl && { initialFocusEl })}
      // Only the options a caller gives: an explicit undefined would replace the library's default.
      {...(role && { role })}
      {...(size && { size })}
      {...(closeOnInteractOutside !== undefined && { closeOnInteractOutside })}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content w={width} maxW={maxWidth} data-testid={testId}>
            {onSubmit ? (
              <form noValidate={noValidate} onSubmit={onSubmit}>
                {sections}
              </form>
            ) : (
              sections
            )}
            {closeButton && (
              <Dialog.CloseTrigger asChild>
                <CloseButton size="sm" />
              </Dialog.CloseTrigger>
            )}
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

/** The footer of a question: Cancel (outline) then the action; `submit` makes the action the form's submit button. */
export function DialogActions({
  onCancel,
  cancelLabel = 'Cancel',
  confirmLabel,
  onConfirm,
  submit,
  colorPalette = 'blue',
  disabled,
  loading,
}: {
  onCancel: () => void;
  cancelLabel?: string;
  confirmLabel: ReactNode;
  onConfirm?: () => void;
  submit?: boolean;
  colorPalette?: string;
  disabled?: boolean;
  loading?: boolean;
}) {
  return (
    <>
      <Button variant="outline" onClick={onCancel}>
        {cancelLabel}
      </Button>
      <Button
        type={submit ? 'submit' : undefined}
        colorPalette={colorPalette}
        onClick={onConfirm}
        disabled={disabled}
        loading={loading}
      >
        {confirmLabel}
      </Button>
    </>
  );
}

/** A form in a dialog (an item's fields to change): Cancel, and `confirmLabel` that submits; an × in the corner. */
export function FormDialog({
  cancelLabel,
  confirmLabel,
  loading,
  children,
  ...dialog
}: {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  testId: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  cancelLabel: string;
  confirmLabel: string;
  loading: boolean;
  children: ReactNode;
}) {
  const actions = { cancelLabel, confirmLabel, loading };
  return (
    <AppDialog
      {...dialog}
      closeButton
      noValidate
      footer={<DialogActions {...actions} onCancel={dialog.onClose} submit />}
    >
      {children}
    </AppDialog>
  );
}
