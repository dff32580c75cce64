import { Field, NativeSelect } from '@chakra-ui/react';
import type { SelectHTMLAttributes } from 'react';

export interface OrganisationChoice {
  id: number;
  name: string;
  code: string;
}

/**
 * E-Support's choice of an organisation: a labelled select of organisations by name and code. `emptyLabel` is the
 * option for none chosen (e.g. 'Your own organisation'); the rest of the props go to the select (value and onChange,
 * or a form's register()).
 */
export function OrganisationPicker({
  label,
  organisations,
  emptyLabel,
  required,
  testId,
  ...select
}: {
  label: string;
  organisations: readonly OrganisationChoice[] | undefined;
  emptyLabel?: string;
  required?: boolean;
  testId?: string;
} & SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <Field.Root maxW="md" required={required}>
      <Field.Label>{label}</Field.Label>
      <NativeSelect.Root>
        <NativeSelect.Field data-testid={testId} {...select}>
          {emptyLabel !== undefined && <option value="">{emptyLabel}</option>}
          {organisations?.map((o) => (
            <option key={o.id} value={String(o.id)}>
              {o.name} ({o.code})
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </Field.Root>
  );
}
