import { Alert } from '@chakra-ui/react';

export const SECTION_UNAVAILABLE = 'This section is not available right now. Please try again later.';

/**
 * A section whose list could not be read (a 404 while the server lacks it, a fault): said calmly, in `title` (by
 * default that the section is not available), no crash.
 */
export function SectionUnavailable({ testId, title = SECTION_UNAVAILABLE }: { testId: string; title?: string }) {
  return (
    <Alert.Root status="info" data-testid={testId}>
      <Alert.Indicator />
      <Alert.Title>{title}</Alert.Title>
    </Alert.Root>
  );
}
