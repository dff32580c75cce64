import { Box, Heading, Link, Text, VStack } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';

/** Spec 000 §2: the not-found page. */
export function NotFoundPage() {
  return (
    <VStack py="20" gap="4" textAlign="center">
      <Heading size="4xl">Oops!</Heading>
      <Heading as="h2" size="xl">
        404 Not Found
      </Heading>
      <Text color="fg.muted">Sorry, an error has occurred, Requested page not found!</Text>
      <Box>
        <Link asChild colorPalette="blue" variant="underline" fontWeight="semibold">
          <RouterLink to="/">Take Me Home</RouterLink>
        </Link>
      </Box>
    </VStack>
  );
}
