import { useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { useAuth } from '@/lib/auth';
import { lastWorkingPath } from '@/lib/auth-storage';
import { LoginCard, safeReturnPath } from './LoginCard';

export { safeReturnPath };

/** The login card inside the application (after signing out, or a session that ended): the router's /logIn. */
export function LoginPage() {
  const { isAuthenticated, checking, signIn, signOut } = useAuth();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [justSignedIn, setJustSignedIn] = useState(false);

  if (checking) return null;
  if (isAuthenticated && !justSignedIn) return <Navigate to={safeReturnPath(lastWorkingPath.get()) ?? '/'} replace />;

  return (
    <LoginCard
      params={params}
      onSignOut={signOut}
      onSignedIn={(accessToken, destination) => {
        setJustSignedIn(true);
        signIn(accessToken);
        navigate(destination, { replace: true });
      }}
    />
  );
}
