import { Button, type ButtonProps } from '@chakra-ui/react';

/**
 * A small outline button in a list's row: it reads `label` and is named `label` then `of` (the row's name, e.g.
 * 'Remove https://hooks.example.com'), so that each row's button has a name of its own. The rest of the props go to
 * the button (onClick, colorPalette, loading, aria-expanded, or an aria-label of its own).
 */
export function RowButton({ label, of, ...button }: { label: string; of: string } & ButtonProps) {
  return (
    <Button size="xs" variant="outline" aria-label={`${label} ${of}`} {...button}>
      {label}
    </Button>
  );
}
