import { Box, Clipboard, Code, HStack, IconButton, Text } from '@chakra-ui/react';

/** A value to paste elsewhere (a DNS record, a provider's settings), with a button that copies it. */
export function CopyField({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <Box>
      <Text fontSize="sm" color="fg.muted">
        {label}
      </Text>
      <HStack gap="1" align="start">
        <Code data-testid={testId} wordBreak="break-all" whiteSpace="pre-wrap" py="1" px="2" flex="1">
          {value}
        </Code>
        <Clipboard.Root value={value}>
          <Clipboard.Trigger asChild>
            <IconButton variant="outline" size="xs" aria-label={`Copy ${label}`}>
              <Clipboard.Indicator />
            </IconButton>
          </Clipboard.Trigger>
        </Clipboard.Root>
      </HStack>
    </Box>
  );
}
