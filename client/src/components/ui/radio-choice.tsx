import { HStack, RadioGroup } from '@chakra-ui/react';

/**
 * One of a few options, as radio buttons side by side. The rest of the props go to the group (e.g. its aria-label).
 */
export function RadioChoice<TValue extends string>({
  value,
  onChange,
  options,
  ...group
}: {
  value: TValue;
  onChange: (value: TValue) => void;
  options: readonly { value: TValue; label: string }[];
} & Omit<RadioGroup.RootProps, 'value' | 'onChange' | 'onValueChange'>) {
  return (
    <RadioGroup.Root value={value} onValueChange={(e) => onChange(e.value as TValue)} {...group}>
      <HStack gap="6">
        {options.map((o) => (
          <RadioGroup.Item key={o.value} value={o.value}>
            <RadioGroup.ItemHiddenInput />
            <RadioGroup.ItemIndicator />
            <RadioGroup.ItemText>{o.label}</RadioGroup.ItemText>
          </RadioGroup.Item>
        ))}
      </HStack>
    </RadioGroup.Root>
  );
}
