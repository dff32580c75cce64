import { ReactNode } from 'react';
import { Alert, Box } from '@chakra-ui/react';
import { hasAnyRole, Role } from '@shared/roles';
import { useAuth } from '@/lib/auth';

export const NO_ACCESS_MESSAGE = 'You do not have access to this page.';

/**
 * Guards a route by role (spec 001 §2.1): a signed-in user whose roles do not allow the page is told
 * so instead of seeing it. `application` additionally requires an application entitlement of the
 * user's organisation (e.g. TAX_MANAGER).
 */
export function RequireRoles({
  roles,
  application,
  children,
}: {
  roles: readonly Role[];
  application?: string;
  children: ReactNode;
}) {
  const { user, roles: mine, userLoading } = useAuth();
  if (userLoading && !user) return null;
  const allowed = hasAnyRole(mine, roles) && (!application || (user?.applications ?? []).includes(application));
  if (allowed) return <>{children}</>;
  return (
    <Box py="10" data-testid="no-access">
      <Alert.Root status="warning" maxW="xl" mx="auto">
        <Alert.Indicator />
        <Alert.Title>{NO_ACCESS_MESSAGE}</Alert.Title>
      </Alert.Root>
    </Box>
  );
}
