import type { FormEventHandler, ReactNode } from 'react';
import { Box, Button, Stack } from '@chakra-ui/react';

/** A form that adds an item to a list: its fields (children), then its submit button, whose `label` names the form. */
export function AddForm({
  label,
  onSubmit,
  loading,
  children,
}: {
  label: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  loading: boolean;
  children: ReactNode;
}) {
  return (
    <form noValidate aria-label={label} onSubmit={onSubmit}>
      <Stack gap="3" maxW="2xl">
        {children}
        <Box>
          <Button type="submit" colorPalette="blue" loading={loading}>
            {label}
          </Button>
        </Box>
      </Stack>
    </form>
  );
}
