import { useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { useAuth } from '@/lib/auth';
import { lastWorkingPath } from '@/lib/auth-storage';
import { asksFreshSignIn, isServerPath, LoginCard, safeReturnPath } from './LoginCard';

export { safeReturnPath };

/** The login card inside the application (after signing out, or a session that ended): the router's /logIn. */
export function LoginPage() {
  const { isAuthenticated, checking, signIn, signOut } = useAuth();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [justSignedIn, setJustSignedIn] = useState(false);

  if (checking) return null;
  if (isAuthenticated && !justSignedIn && !asksFreshSignIn(params)) {
    const returnTo = safeReturnPath(params.get('returnTo'));
    if (returnTo && isServerPath(returnTo)) {
      window.location.assign(returnTo);
      return null;
    }
    return <Navigate to={safeReturnPath(lastWorkingPath.get()) ?? '/'} replace />;
  }

  return (
    <LoginCard
      params={params}
      onSignOut={signOut}
      onSignedIn={(accessToken, destination) => {
        setJustSignedIn(true);
        signIn(accessToken);
        // The OpenID provider's sign-in is the server's: a full navigation.
        if (isServerPath(destination)) window.location.assign(destination);
        else navigate(destination, { replace: true });
      }}
    />
  );
}
