import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { SecretShownOnce } from './SecretShownOnce';
import { useConfirmedAction } from './ui/confirm-action';
import { toaster, toastFailure } from './ui/toaster';

/** The words of a list of credentials: the new one shown once, a failure, and a revocation's question and outcome. */
export interface IssuedCredentialsTexts {
  CREATED_TITLE: string;
  CREATED: string;
  COPY: string;
  FAILED: string;
  REVOKE: string;
  REVOKE_TITLE: string;
  revokeQuestion: (name: string) => string;
  REVOKED: string;
}

/**
 * The actions on a list of named credentials whose secret is shown once (API keys, provisioning tokens): `create`
 * keeps the new credential, which `shownOnce` shows (its secret read by `secretOf`) until put away; `revoke.ask(item)`
 * asks first in `revoke.dialog`. Each reloads the list; a failure says the server's message or `texts.FAILED`.
 */
export function useIssuedCredentials<TInput, TMade, TItem extends { name: string }>({
  create,
  revoke,
  reload,
  secretOf,
  testId,
  texts: T,
}: {
  create: (input: TInput) => Promise<TMade>;
  revoke: (item: TItem) => Promise<unknown>;
  reload: () => Promise<unknown>;
  secretOf: (made: TMade) => string;
  /** The test id of the secret shown once. */
  testId: string;
  texts: IssuedCredentialsTexts;
}) {
  const [made, setMade] = useState<TMade | null>(null);
  const failed = toastFailure(T.FAILED);
  const creation = useMutation({
    mutationFn: create,
    onSuccess: (credential) => {
      setMade(credential);
      void reload();
    },
    onError: failed,
  });
  const revocation = useConfirmedAction({
    mutationFn: revoke,
    onSuccess: () => {
      toaster.create({ type: 'success', title: T.REVOKED });
      void reload();
    },
    onError: failed,
    question: { title: T.REVOKE_TITLE, message: (item) => T.revokeQuestion(item.name), confirmLabel: T.REVOKE },
  });
  const shown = made && (
    <SecretShownOnce
      title={T.CREATED_TITLE}
      text={T.CREATED}
      value={secretOf(made)}
      copyLabel={T.COPY}
      testId={testId}
      onDone={() => setMade(null)}
    />
  );
  return { shownOnce: shown, create: creation, revoke: revocation };
}
