import { startTransition, StrictMode, useEffect, useState } from 'react';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { refreshAccessToken, tokenStore } from '@/lib/api';
import { forgetSignIn, lastWorkingPath, mayHaveSession, storeSignIn } from '@/lib/auth-storage';
import {
  asksFreshSignIn,
  isServerPath,
  LoginCard,
  safeReturnPath,
} from '@/features/identity/auth/components/LoginCard';

const loadProvider = () => import('./standalone-chakra').then((m) => m.StandaloneChakra);

async function signOutHere(reason: string) {
  forgetSignIn(reason);
}

/**
 * The card with nothing of the application around it: React, the card's stylesheet and the first step
 * (the later steps and Chakra load when the card is first touched). A signed-in visitor, or one whose
 * refresh cookie still holds a session, goes on into the application without seeing the card.
 */
export function StandaloneLogin({
  enter,
  search,
  resuming,
}: {
  enter: (destination: string) => void;
  search: string;
  /** A token is stored, or the server's hint says the refresh cookie may hold a session. */
  resuming: boolean;
}) {
  const params = new URLSearchParams(search);
  // An application that asked for a fresh sign-in gets the card, whatever session the browser has.
  const [checking, setChecking] = useState(resuming && !asksFreshSignIn(params));

  useEffect(() => {
    if (!checking) return;
    // Back to the OpenID provider's sign-in when it sent the browser here; else the last page worked on.
    const returnTo = safeReturnPath(params.get('returnTo'));
    const resume =
      (returnTo && isServerPath(returnTo) ? returnTo : null) ?? safeReturnPath(lastWorkingPath.get()) ?? '/';
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

/**
 * Shows the card in `container`; after a sign-in the application takes the page's root over at the
 * destination. The build puts the card's first step, rendered, into the page it serves for /logIn
 * (scripts/prerender-login.mjs): an anonymous visit hydrates it, the card is on screen before any script ran.
 */
export function mountLogin(container: HTMLElement, mountApp: (root: Root) => void) {
  const resuming = !!tokenStore.get() || mayHaveSession();
  let root: Root;
  const enter = (destination: string) => {
    // The OpenID provider's sign-in is the server's: a full navigation.
    if (isServerPath(destination)) return window.location.assign(destination);
    window.history.replaceState(null, '', destination);
    mountApp(root);
  };
  const card = (
    <StrictMode>
      <StandaloneLogin enter={enter} search={window.location.search} resuming={resuming} />
    </StrictMode>
  );
  // In a transition, hydration and rendering go in slices that yield to the browser: no long task on a slow phone.
  if (container.firstElementChild && !resuming) {
    startTransition(() => {
      root = hydrateRoot(container, card);
    });
  } else {
    root = createRoot(container);
    startTransition(() => root.render(card));
  }
}
