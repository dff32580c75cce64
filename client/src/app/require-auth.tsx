import { ReactNode, useEffect } from 'react';
import { Navigate, useLocation } from 'react-router';
import { mfaPending } from '@shared/identity/mfa-rules';
import { paths } from '@/config/paths';
import { useAuth } from '@/lib/auth';
import { lastWorkingPath } from '@/lib/auth-storage';

/**
 * Guards every route that is not public: a logged-out visitor goes to /logIn?returnTo=…; a signed-in
 * user whose MFA is enforced but not enabled is kept on their own profile page until they enrol.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { isAuthenticated, checking, user } = useAuth();
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;

  useEffect(() => {
    if (isAuthenticated) lastWorkingPath.set(here);
  }, [isAuthenticated, here]);

  if (checking) return null;
  if (!isAuthenticated) return <Navigate to={`${paths.login}?returnTo=${encodeURIComponent(here)}`} replace />;

  if (user && mfaPending(user)) {
    const own = paths.userProfile(user.id);
    if (location.pathname !== own) return <Navigate to={`${own}?mfaRequired=true`} replace />;
  }
  return <>{children}</>;
}
