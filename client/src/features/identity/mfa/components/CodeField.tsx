import { Field, Input } from '@chakra-ui/react';
import { maskCode } from '../mfa-texts';

/** A 6-digit code input with the mask 999999; its error shows under the field (spec 000 §8). */
export function CodeField({
  label,
  value,
  onChange,
  error,
  onEnter,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  error?: string | null;
  onEnter?: () => void;
}) {
  return (
    <Field.Root invalid={!!error}>
      <Field.Label>{label}</Field.Label>
      <Input
        inputMode="numeric"
        autoComplete="one-time-code"
        placeholder="______"
        maxLength={6}
        letterSpacing="widest"
        fontFamily="mono"
        value={value}
        onChange={(e) => onChange(maskCode(e.target.value))}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && onEnter) {
            e.preventDefault();
            onEnter();
          }
        }}
      />
      <Field.ErrorText data-testid="mfa-code-error">{error}</Field.ErrorText>
    </Field.Root>
  );
}
