import { Box, Heading, Link, Text } from '@chakra-ui/react';
import { useAppInfo } from '@/lib/app-info';

/** Spec 000 §8 'User list load failure': unavailable, support notified, a support contact. */
export function UsersUnavailable() {
  const appInfo = useAppInfo();
  const email = appInfo.data?.supportEmail;
  return (
    <Box py="10" textAlign="center" data-testid="users-unavailable">
      <Heading size="lg" mb="3">
        User information is currently unavailable
      </Heading>
      <Text mb="2">
        The list of users could not be loaded at the moment. Our support team has been notified of the problem.
      </Text>
      <Text>
        If the problem persists, please contact support
        {email ? (
          <>
            {' at '}
            <Link href={`mailto:${email}`} colorPalette="blue" data-testid="support-contact">
              {email}
            </Link>
          </>
        ) : null}
        .
      </Text>
    </Box>
  );
}
