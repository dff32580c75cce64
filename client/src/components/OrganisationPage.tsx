import type { ReactNode } from 'react';
import { Alert, Box, Stack, type StackProps, Text } from '@chakra-ui/react';
import { ChosenOrganisationPicker } from './ChosenOrganisationPicker';
import { PageHeader } from './ui/page-header';

export interface OrganisationPageTexts {
  TITLE: string;
  INTRO?: string;
  /** The label of E-Support's organisation picker, and its option for none chosen. */
  ORGANISATION?: string;
  OWN_ORGANISATION?: string;
  /** The note for those who may read the page but not change it. */
  READ_ONLY?: string;
}

/**
 * A page that works on one organisation: its title and introduction, E-Support's organisation picker (`picker`), the
 * note for those who may only read it (`readOnly`), then the page's own content. `name` names the parts for tests
 * (`<name>-page`, `<name>-organisation`, `<name>-read-only`); the rest of the props lay out the content (gap, maxW).
 */
export function OrganisationPage({
  name,
  texts: T,
  picker,
  readOnly,
  children,
  ...content
}: {
  name: string;
  texts: OrganisationPageTexts;
  picker?: boolean;
  readOnly?: boolean;
  children: ReactNode;
} & StackProps) {
  return (
    <Box data-testid={`${name}-page`}>
      <PageHeader title={T.TITLE} />
      <Stack {...content}>
        {T.INTRO && <Text color="fg.muted">{T.INTRO}</Text>}
        {picker && (
          <ChosenOrganisationPicker
            label={T.ORGANISATION ?? ''}
            emptyLabel={T.OWN_ORGANISATION ?? ''}
            testId={`${name}-organisation`}
          />
        )}
        {readOnly && (
          <Alert.Root status="info" data-testid={`${name}-read-only`}>
            <Alert.Indicator />
            <Alert.Title>{T.READ_ONLY}</Alert.Title>
          </Alert.Root>
        )}
        {children}
      </Stack>
    </Box>
  );
}
