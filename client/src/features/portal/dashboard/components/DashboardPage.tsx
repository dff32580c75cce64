import { Alert, Badge, Box, Card, Heading, HStack, Link, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import { CAPABILITY_ROLES, hasAnyRole, Role, roleNames } from '@shared/roles';
import { InsightsHeadline } from '@/features/administration/insights';
import { paths } from '@/config/paths';
import { useAuth } from '@/lib/auth';
import { dashboardLinks } from '../dashboard-links';

/** The root page: who is signed in, their organisation and MFA state, and where to go next. */
export function DashboardPage() {
  const { user, roles } = useAuth();
  if (!user) return null;
  const links = dashboardLinks(roles, user.applications, user.id);
  return (
    <Stack gap="6">
      <Box>
        <Heading size="2xl">Welcome{user.firstName ? `, ${user.firstName}` : ''}</Heading>
        <Text color="fg.muted" mt="2" data-testid="dashboard-organisation">
          {user.masterAccountName} ({user.organisationCode}) · {user.email}
        </Text>
        <HStack mt="2" gap="2" wrap="wrap">
          <Badge colorPalette="blue">{roleNames(roles)}</Badge>
          {user.applications.map((a) => (
            <Badge key={a} variant="outline">
              {a === 'TAX_MANAGER' ? 'Tax Manager' : a === 'CA_VIEWER' ? 'Corporate Actions Viewer' : a}
            </Badge>
          ))}
        </HStack>
      </Box>
      {user.isMFAEnabled || user.hasPasskey ? (
        <Alert.Root status="success" data-testid="dashboard-mfa">
          <Alert.Indicator />
          <Alert.Title>Multi-factor authentication is enabled on your account.</Alert.Title>
        </Alert.Root>
      ) : (
        <Alert.Root status="warning" data-testid="dashboard-mfa">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>Multi-factor authentication is not enabled on your account.</Alert.Title>
            <Alert.Description>
              <Link asChild variant="underline">
                <RouterLink to={paths.userProfile(user.id)}>Enable it on your profile</RouterLink>
              </Link>{' '}
              to protect your account with an authenticator app.
            </Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
      {hasAnyRole(roles, CAPABILITY_ROLES.INSIGHTS) && !roles.includes(Role.E_SUPPORT) && <InsightsHeadline />}
      <Box>
        <Heading size="lg" mb="3">
          What you can do
        </Heading>
        <SimpleGrid columns={{ base: 1, sm: 2, lg: 3 }} gap="4" data-testid="dashboard-links">
          {links.map((l) => (
            <Card.Root key={l.label} size="sm">
              <Card.Body>
                <Link asChild fontWeight="semibold" colorPalette="blue">
                  <RouterLink to={l.to}>{l.label}</RouterLink>
                </Link>
                <Text fontSize="sm" color="fg.muted" mt="1">
                  {l.description}
                </Text>
              </Card.Body>
            </Card.Root>
          ))}
        </SimpleGrid>
      </Box>
    </Stack>
  );
}
