import { Alert, Heading, Spinner, Stack, Table, Text } from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import { OIDC_SCOPE_LABELS, type MyOidcApp, type OidcScope } from '@shared/identity/oidc-clients';
import { useConfirmedAction } from '@/components/ui/confirm-action';
import { DataTable } from '@/components/ui/data-table';
import { RowButton } from '@/components/ui/row-button';
import { toaster, toastFailure } from '@/components/ui/toaster';
import { errorMessage } from '@/lib/api';
import { formatDateTime } from '@/lib/formats';
import { queryKeys } from '@/lib/query-keys';
import { mySecurityApi, useMyApps } from '../api/my-security-api';

const MY_APPLICATIONS_TEXTS = {
  TITLE: 'Applications with access',
  INTRO: 'These applications signed you in with your portal account and may read what is listed beside them.',
  NONE: 'No applications have access to your account.',
  COLUMNS: ['Application', 'What it may read', 'Access given', 'Last used'],
  ACTION: 'Action',
  NEVER: 'Never',
  REVOKE: 'Revoke',
  revokeLabel: (name: string) => `Revoke the access of ${name}`,
  REVOKE_TITLE: 'Revoke access',
  revokeQuestion: (name: string) =>
    `Revoke the access of "${name}"? It is signed out of your account at once and can read nothing more until you sign in to it again.`,
  REVOKED: 'The application no longer has access to your account.',
  FAILED: 'The access could not be revoked. Please try again.',
  LOAD_FAILED: 'The applications with access could not be loaded.',
} as const;
const T = MY_APPLICATIONS_TEXTS;

/** What a scope lets an application read, in words (an unknown scope by its name). */
const scopeLabel = (scope: string) => OIDC_SCOPE_LABELS[scope as OidcScope] ?? scope;

/** The applications that signed me in through the portal: what each may read, since when; revoke one. */
export function MyApplications() {
  const query = useMyApps();
  const queryClient = useQueryClient();
  const revoke = useConfirmedAction({
    mutationFn: (app: MyOidcApp) => mySecurityApi.revokeApp(app.clientId),
    onSuccess: () => {
      toaster.create({ type: 'success', title: T.REVOKED });
      void queryClient.invalidateQueries({ queryKey: queryKeys.mySecurity.apps });
    },
    onError: toastFailure(T.FAILED),
    question: { title: T.REVOKE_TITLE, message: (app) => T.revokeQuestion(app.name), confirmLabel: T.REVOKE },
  });

  return (
    <Stack gap="3" as="section" aria-labelledby="my-applications">
      <Heading as="h2" size="lg" id="my-applications">
        {T.TITLE}
      </Heading>
      {query.isLoading ? (
        <Spinner />
      ) : query.isError || !query.data ? (
        <Alert.Root status="error">
          <Alert.Indicator />
          <Alert.Title>{errorMessage(query.error, T.LOAD_FAILED)}</Alert.Title>
        </Alert.Root>
      ) : query.data.length === 0 ? (
        <Text data-testid="my-applications-none">{T.NONE}</Text>
      ) : (
        <>
          <Text color="fg.muted">{T.INTRO}</Text>
          <DataTable data-testid="my-applications" header={{ scope: 'col' }} columns={T.COLUMNS} actions={T.ACTION}>
            {query.data.map((app) => (
              <Table.Row key={app.clientId} data-testid="my-application">
                <Table.Cell>{app.name}</Table.Cell>
                <Table.Cell>
                  <Stack as="ul" gap="0" listStyleType="none">
                    {app.scopes.map((scope) => (
                      <li key={scope}>{scopeLabel(scope)}</li>
                    ))}
                  </Stack>
                </Table.Cell>
                <Table.Cell>{formatDateTime(app.grantedAt)}</Table.Cell>
                <Table.Cell>{app.lastUsedAt ? formatDateTime(app.lastUsedAt) : T.NEVER}</Table.Cell>
                <Table.Cell textAlign="end">
                  <RowButton
                    label={T.REVOKE}
                    of={app.name}
                    aria-label={T.revokeLabel(app.name)}
                    colorPalette="red"
                    onClick={() => revoke.ask(app)}
                  />
                </Table.Cell>
              </Table.Row>
            ))}
          </DataTable>
        </>
      )}
      {revoke.dialog}
    </Stack>
  );
}
