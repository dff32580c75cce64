import { useState } from 'react';
import { mfaApi } from '../api/mfa-api';
import { CodeEntryDialog, useCodeEntry } from './CodeEntryDialog';

/** Switching one's own MFA off asks for a current code. */
export function DisableMfaDialog({
  open,
  onClose,
  onDisabled,
}: {
  open: boolean;
  onClose: () => void;
  onDisabled: () => void;
}) {
  const entry = useCodeEntry(mfaApi.disable, () => onDisabled());

  // Each opening starts empty (state adjusted while rendering, not in an effect).
  const [wasOpen, setWasOpen] = useState(open);
  if (wasOpen !== open) {
    setWasOpen(open);
    if (open) entry.clear();
  }

  return (
    <CodeEntryDialog
      open={open}
      onClose={onClose}
      title="Disabling MFA"
      intro="Enter the current 6-digit code from your authenticator app to disable MFA."
      label="MFA code"
      entry={entry}
      testId="disable-mfa-dialog"
      colorPalette="red"
    />
  );
}
