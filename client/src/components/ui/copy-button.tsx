import { Button, type ButtonProps, Clipboard } from '@chakra-ui/react';

/**
 * A button that copies `value`: its name is `label` (what it copies), it reads `text` (the label when left out),
 * then 'Copied' for a moment. The rest of the props style the button (size, variant, colorPalette).
 */
export function CopyButton({
  value,
  label,
  text = label,
  ...button
}: { value: string; label: string; text?: string } & Omit<ButtonProps, 'value'>) {
  return (
    <Clipboard.Root value={value}>
      <Clipboard.Trigger asChild>
        <Button aria-label={label} {...button}>
          <Clipboard.Indicator copied="Copied">{text}</Clipboard.Indicator>
        </Button>
      </Clipboard.Trigger>
    </Clipboard.Root>
  );
}
