import { ReactNode } from 'react';
import { Box, Heading, Link, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import { paths } from '@/config/paths';
import { PRODUCT_NAME } from '@shared/messages';

/** A public legal page's body; the app's public frame (PublicLayout) puts the header above it. */
export function LegalLayout({ title, updated, children }: { title: string; updated: string; children: ReactNode }) {
  return (
    <Box as="main" pt="90px" px={{ base: '4', md: '6' }} pb="16" maxW="3xl" mx="auto">
      <Stack gap="5" bg="bg" p={{ base: '5', md: '8' }} rounded="md" borderWidth="1px" css={{ '& h2': { mt: '4' } }}>
        <Heading as="h1" size="2xl">
          {PRODUCT_NAME} — {title}
        </Heading>
        <Text color="fg.muted" fontSize="sm">
          Last updated {updated}
        </Text>
        {children}
        <Text fontSize="sm" color="fg.muted" pt="4">
          See also the{' '}
          <Link asChild variant="underline">
            <RouterLink to={paths.terms}>Terms and Conditions</RouterLink>
          </Link>{' '}
          and the{' '}
          <Link asChild variant="underline">
            <RouterLink to={paths.privacy}>Privacy Policy</RouterLink>
          </Link>
          .
        </Text>
      </Stack>
    </Box>
  );
}

export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box as="section">
      <Heading as="h2" size="lg" mb="2">
        {title}
      </Heading>
      <Stack gap="2">{children}</Stack>
    </Box>
  );
}
