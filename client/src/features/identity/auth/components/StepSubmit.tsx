import { ReactNode } from 'react';
import { Alert, Button } from '@chakra-ui/react';

/** The foot of a sign-in form: the step's error (if any) above its submit button ('Confirm' unless told). */
export function StepSubmit({
  error,
  busy,
  disabled,
  label = 'Confirm',
  errorTestId,
}: {
  error: string | null | undefined;
  busy: boolean;
  disabled?: boolean;
  label?: ReactNode;
  errorTestId?: string;
}) {
  return (
    <>
      {error && (
        <Alert.Root status="error" size="sm" data-testid={errorTestId}>
          <Alert.Indicator />
          <Alert.Title>{error}</Alert.Title>
        </Alert.Root>
      )}
      <Button type="submit" colorPalette="blue" loading={busy} disabled={disabled}>
        {label}
      </Button>
    </>
  );
}
