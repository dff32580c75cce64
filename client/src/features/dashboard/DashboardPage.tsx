import { Box, Heading, Text } from '@chakra-ui/react';
import { useAuth } from '@/lib/auth';

/** The root page: who is signed in and where to go next. */
export function DashboardPage() {
  const { user } = useAuth();
  return (
    <Box>
      <Heading size="2xl">Welcome{user?.firstName ? `, ${user.firstName}` : ''}</Heading>
      {user && (
        <Text color="fg.muted" mt="2" data-testid="dashboard-organisation">
          {user.masterAccountName} ({user.organisationCode}) · {user.email}
        </Text>
      )}
    </Box>
  );
}
