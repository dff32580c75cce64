import { Alert, Heading, Link, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import { paths } from '@/config/paths';

/** An honest page for an area of the Tax Manager application that this release does not include. */
export function PlaceholderAreaPage({ title, summary }: { title: string; summary: string }) {
  return (
    <Stack gap="4" maxW="3xl" data-testid="placeholder-area">
      <Heading size="2xl">{title}</Heading>
      <Text color="fg.muted">{summary}</Text>
      <Alert.Root status="info">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>This area belongs to the Tax Manager application and is not part of this release.</Alert.Title>
          <Alert.Description>
            Your access to it is already set up. Until it is released, you can manage users, your organisation and your
            own profile here; see the{' '}
            <Link asChild variant="underline">
              <RouterLink to={paths.userManual}>User Manual</RouterLink>
            </Link>{' '}
            for what this release offers.
          </Alert.Description>
        </Alert.Content>
      </Alert.Root>
    </Stack>
  );
}
