import { startTransition, StrictMode, useEffect, useState } from 'react';
import type { Root } from 'react-dom/client';
import { refreshAccessToken, tokenStore } from '@/lib/api';
import { forgetSignIn, lastWorkingPath, mayHaveSession, storeSignIn } from '@/lib/auth-storage';
import { LoginCard, safeReturnPath } from '@/features/auth/components/LoginCard';

/** A visit that opens on /logIn: the card on its own, the application loaded once someone has signed in. */
export function isLoginAddress(pathname: string): boolean {
  return /^\/login\/?$/i.test(pathname);
}

const loadProvider = () => import('./standalone-chakra').then((m) => m.StandaloneChakra);

async function signOutHere(reason: string) {
  forgetSignIn(reason);
}

/**
 * The card with nothing of the application around it: React, the card's stylesheet and the first step
 * (the later steps and Chakra load when the card is first touched). A signed-in visitor, or one whose
 * refresh cookie still holds a session, goes on into the application without seeing the card.
 */
function StandaloneLogin({ enter }: { enter: (destination: string) => void }) {
  const params = new URLSearchParams(window.location.search);
  const [checking, setChecking] = useState(() => !!tokenStore.get() || mayHaveSession());

  useEffect(() => {
    if (!checking) return;
    const resume = safeReturnPath(lastWorkingPath.get()) ?? '/';
    if (tokenStore.get()) return enter(resume);
    let live = true;
    void refreshAccessToken().then((token) => {
      if (!live) return;
      if (token) enter(resume);
      else setChecking(false);
    });
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  if (checking) return null;
  return (
    <LoginCard
      params={params}
      provider={loadProvider}
      onSignOut={signOutHere}
      onSignedIn={(accessToken, destination) => {
        storeSignIn(accessToken);
        enter(destination);
      }}
    />
  );
}

/** Shows the card in `root`; after a sign-in the application takes the root over at the destination. */
export function mountLogin(root: Root, mountApp: () => void) {
  const enter = (destination: string) => {
    window.history.replaceState(null, '', destination);
    mountApp();
  };
  // A transition renders in slices that yield to the browser: no long task on a slow phone.
  startTransition(() =>
    root.render(
      <StrictMode>
        <StandaloneLogin enter={enter} />
      </StrictMode>,
    ),
  );
}

