import { Button, Checkbox, Field, Input, Text } from '@chakra-ui/react';
import { rememberDeviceLabel } from '@shared/identity/mfa-recovery';
import { RECOVERY_TEXTS } from '../recovery-texts';

/**
 * In the login card's MFA step: the recovery code input (same 'MFA Token' label), the link that
 * switches to it and back, and "Don't ask again on this device" when MFA_REMEMBER_DAYS is above 0.
 */
export function RecoveryCodeField({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (v: string) => void;
  error?: string | null;
}) {
  return (
    <Field.Root invalid={!!error}>
      <Field.Label>MFA Token</Field.Label>
      <Input
        name="recoveryCode"
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        autoFocus
        maxLength={20}
        placeholder="xxxxx-xxxxx"
        fontFamily="mono"
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      <Field.HelperText>{RECOVERY_TEXTS.RECOVERY_HINT}</Field.HelperText>
      {error && <Field.ErrorText>{error}</Field.ErrorText>}
    </Field.Root>
  );
}

export function RecoveryCodeToggle({ useRecoveryCode, onToggle }: { useRecoveryCode: boolean; onToggle: () => void }) {
  return (
    <Button variant="plain" size="sm" colorPalette="blue" onClick={onToggle}>
      {useRecoveryCode ? RECOVERY_TEXTS.USE_AUTHENTICATOR : RECOVERY_TEXTS.USE_RECOVERY_CODE}
    </Button>
  );
}

export function RememberDeviceCheckbox({
  days,
  checked,
  onChange,
}: {
  days: number;
  checked: boolean;
  onChange: (v: boolean) => void;
}) {
  if (days <= 0) return null;
  return (
    <Checkbox.Root checked={checked} onCheckedChange={(e) => onChange(e.checked === true)} size="sm">
      <Checkbox.HiddenInput name="rememberDevice" />
      <Checkbox.Control />
      <Checkbox.Label>
        <Text as="span">{rememberDeviceLabel(days)}</Text>
      </Checkbox.Label>
    </Checkbox.Root>
  );
}
