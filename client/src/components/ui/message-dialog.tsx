import { ReactNode } from 'react';
import { Button } from '@chakra-ui/react';
import { AppDialog } from './app-dialog';

/** An alert with one OK button: the failure dialogs and the 'log in again' alerts of spec 000 §8. */
export function MessageDialog({
  open,
  title,
  message,
  onClose,
}: {
  open: boolean;
  title: string;
  message: ReactNode;
  onClose: () => void;
}) {
  return (
    <AppDialog
      open={open}
      onClose={onClose}
      role="alertdialog"
      title={title}
      testId="message-dialog"
      footer={
        <Button colorPalette="blue" onClick={onClose}>
          OK
        </Button>
      }
    >
      {message}
    </AppDialog>
  );
}
