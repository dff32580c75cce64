import type { ReactNode } from 'react';
import { Alert, Box, Stack, type StackProps, Text } from '@chakra-ui/react';
import { ChosenOrganisationPicker, type ChosenOrganisationPickerTexts } from './ChosenOrganisationPicker';
import { PageHeader } from './ui/page-header';

/**
 * A page that works on one organisation: its title, its introduction, E-Support's organisation picker (`picker`),
 * a note for those who may only read it (`readOnly`), then the page's own content. The rest of the props lay out the
 * content (gap, maxW).
 */
export function OrganisationPage({
  testId,
  title,
  intro,
  picker,
  readOnly,
  children,
  ...content
}: {
  testId: string;
  title: string;
  intro?: string;
  picker?: ChosenOrganisationPickerTexts;
  /** Shown where given: the caller may read the page but not change it. */
  readOnly?: { text: string; testId: string };
  children: ReactNode;
} & StackProps) {
  return (
    <Box data-testid={testId}>
      <PageHeader title={title} />
      <Stack {...content}>
        {intro && <Text color="fg.muted">{intro}</Text>}
        {picker && <ChosenOrganisationPicker {...picker} />}
        {readOnly && (
          <Alert.Root status="info" data-testid={readOnly.testId}>
            <Alert.Indicator />
            <Alert.Title>{readOnly.text}</Alert.Title>
          </Alert.Root>
        )}
        {children}
      </Stack>
    </Box>
  );
}
