import { ReactNode } from 'react';
import { hasAnyRole, Role } from '@shared/roles';
import { useAuth } from './auth';

/** Whether the signed-in user holds any of the roles. */
export function useHasRole(allowed: readonly Role[]): boolean {
  const { roles } = useAuth();
  return hasAnyRole(roles, allowed);
}

/** Shows its children only to the given roles (bulletproof-react's Authorization). */
export function Authorization({
  roles,
  children,
  fallback = null,
}: {
  roles: readonly Role[];
  children: ReactNode;
  fallback?: ReactNode;
}) {
  return <>{useHasRole(roles) ? children : fallback}</>;
}
