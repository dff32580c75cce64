import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Badge, Box, Button, Clipboard, Code, Field, HStack, Stack, Table, Text } from '@chakra-ui/react';
import { useMutation } from '@tanstack/react-query';
import type { OidcClientItem } from '@shared/identity/oidc-clients';
import { Role } from '@shared/roles';
import { AppDialog, DialogActions } from '@/components/ui/app-dialog';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { PageHeader } from '@/components/ui/page-header';
import { toaster } from '@/components/ui/toaster';
import { SecretShownOnce } from '@/features/administration/integrations';
import { errorMessage } from '@/lib/api';
import { useAppInfo } from '@/lib/app-info';
import { useAuth } from '@/lib/auth';
import { formatDateTime } from '@/lib/formats';
import { useOrganisationScope } from '@/lib/organisation-scope';
import { oidcClientsApi, useOidcClients, useOidcIssuer, useReloadOidcClients } from '../api/oidc-clients-api';
import { OIDC_CLIENTS_TEXTS as T } from '../oidc-clients-texts';
import {
  applicationFields,
  applicationForm,
  applicationSchema,
  blankApplication,
  type ApplicationForm,
  ApplicationFields,
} from './ApplicationFields';

const C = T.COLUMNS;

/** The issuer the applications are configured with, and a copy button; nothing while the provider cannot be read. */
function Issuer() {
  const issuer = useOidcIssuer();
  if (!issuer.data) return null;
  return (
    <Field.Root>
      <Field.Label>{T.ISSUER}</Field.Label>
      <HStack>
        <Code data-testid="oidc-issuer" px="2" py="1" wordBreak="break-all">
          {issuer.data}
        </Code>
        <Clipboard.Root value={issuer.data}>
          <Clipboard.Trigger asChild>
            <Button size="xs" variant="outline" aria-label={T.COPY_ISSUER}>
              <Clipboard.Indicator copied={T.COPIED}>{T.COPY_ISSUER}</Clipboard.Indicator>
            </Button>
          </Clipboard.Trigger>
        </Clipboard.Root>
      </HStack>
      <Field.HelperText>{T.ISSUER_HELP}</Field.HelperText>
    </Field.Root>
  );
}

/**
 * The Applications tab of the organisation settings: the applications that sign people in through the portal's
 * OpenID provider. A site admin registers its organisation's; E-Support works on the organisation chosen in the
 * area's picker (?organisationId=), or, with none chosen, on the deployment's own applications. Registering,
 * changing, rotating and removing are sensitive calls: the request layer asks the step-up dialog and retries.
 */
export function ApplicationsPage() {
  const { roles, user } = useAuth();
  const support = roles.includes(Role.E_SUPPORT);
  const scope = useOrganisationScope();
  const organisationId = (support && scope.organisationId) || undefined;
  // Another organisation chosen: a fresh page, without the last one's secret, forms or dialogs.
  return (
    <Applications
      key={organisationId ?? 'own'}
      organisationId={organisationId}
      deployment={support && organisationId === undefined}
      enabled={!!user}
    />
  );
}

function Applications({
  organisationId,
  deployment,
  enabled,
}: {
  organisationId: number | undefined;
  /** E-Support without an organisation chosen: the deployment's own applications. */
  deployment: boolean;
  enabled: boolean;
}) {
  const clients = useOidcClients(organisationId, enabled);
  const reload = useReloadOidcClients();
  const [secret, setSecret] = useState<{ value: string; clientId: string } | null>(null);
  const [editing, setEditing] = useState<OidcClientItem | null>(null);
  const [rotating, setRotating] = useState<OidcClientItem | null>(null);
  const [removing, setRemoving] = useState<OidcClientItem | null>(null);
  // The deployment's rule for addresses; until it is known, the strict one (the production setting). The forms take
  // the resolver of the latest render.
  const allowPrivateNetworks = useAppInfo().data?.allowPrivateNetworks ?? false;
  const resolver = useMemo(() => zodResolver(applicationSchema(allowPrivateNetworks)), [allowPrivateNetworks]);
  const addForm = useForm<ApplicationForm>({
    resolver,
    defaultValues: blankApplication,
  });
  const editForm = useForm<ApplicationForm>({
    resolver,
    defaultValues: blankApplication,
  });
  const failed = (e: unknown) => toaster.create({ type: 'error', title: errorMessage(e, T.FAILED) });

  const create = useMutation({
    mutationFn: oidcClientsApi.create,
    onSuccess: (made) => {
      if (made.clientSecret) setSecret({ value: made.clientSecret, clientId: made.clientId });
      else toaster.create({ type: 'success', title: T.REGISTERED_PUBLIC });
      addForm.reset(blankApplication);
      void reload();
    },
    onError: failed,
  });
  const update = useMutation({
    mutationFn: oidcClientsApi.update,
    onSuccess: () => {
      toaster.create({ type: 'success', title: T.SAVED });
      setEditing(null);
      void reload();
    },
    onError: failed,
  });
  const rotate = useMutation({
    mutationFn: (c: OidcClientItem) => oidcClientsApi.rotateSecret(c.id),
    onSuccess: (r, c) => {
      setSecret({ value: r.clientSecret, clientId: c.clientId });
      setRotating(null);
    },
    onError: failed,
  });
  const remove = useMutation({
    mutationFn: (c: OidcClientItem) => oidcClientsApi.remove(c.id),
    onSuccess: () => {
      toaster.create({ type: 'success', title: T.REMOVED });
      setRemoving(null);
      void reload();
    },
    onError: failed,
  });

  const startEdit = (c: OidcClientItem) => {
    editForm.reset(applicationForm(c));
    setEditing(c);
  };

  return (
    <Box data-testid="applications-page">
      <PageHeader title={T.TITLE} />
      <Stack gap="6" maxW="5xl">
        <Text color="fg.muted">{deployment ? T.DEPLOYMENT_INTRO : T.INTRO}</Text>
        <Issuer />
        {secret && (
          <SecretShownOnce
            title={T.SECRET_TITLE}
            text={T.SECRET}
            note={T.clientIdNote(secret.clientId)}
            value={secret.value}
            copyLabel={T.COPY}
            testId="new-client-secret"
            onDone={() => setSecret(null)}
          />
        )}
        <form
          noValidate
          aria-label={T.REGISTER}
          onSubmit={addForm.handleSubmit((v) =>
            create.mutate({ ...applicationFields(v), type: v.type, organisationId }),
          )}
        >
          <Stack gap="3" maxW="2xl">
            <ApplicationFields form={addForm} editing={false} />
            <Box>
              <Button type="submit" colorPalette="blue" loading={create.isPending}>
                {T.REGISTER}
              </Button>
            </Box>
          </Stack>
        </form>
        {clients.isError && (
          <Alert.Root status="info" data-testid="applications-unavailable">
            <Alert.Indicator />
            <Alert.Title>{T.UNAVAILABLE}</Alert.Title>
          </Alert.Root>
        )}
        {clients.data && clients.data.length === 0 && <Text>{T.NONE}</Text>}
        {clients.data && clients.data.length > 0 && (
          <Table.ScrollArea>
            <Table.Root size="sm" data-testid="applications" aria-label={T.TITLE}>
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader scope="col">{C.NAME}</Table.ColumnHeader>
                  <Table.ColumnHeader scope="col">{C.TYPE}</Table.ColumnHeader>
                  <Table.ColumnHeader scope="col">{C.CLIENT_ID}</Table.ColumnHeader>
                  <Table.ColumnHeader scope="col">{C.REDIRECT_URIS}</Table.ColumnHeader>
                  <Table.ColumnHeader scope="col">{C.LAST_USED}</Table.ColumnHeader>
                  <Table.ColumnHeader scope="col">
                    <Box srOnly>{T.ACTIONS}</Box>
                  </Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {clients.data.map((c) => (
                  <Table.Row key={c.id} data-testid="application-row">
                    <Table.Cell>{c.name}</Table.Cell>
                    <Table.Cell>
                      <Badge variant="outline">{T.TYPE_NAMES[c.type]}</Badge>
                    </Table.Cell>
                    <Table.Cell fontFamily="mono" wordBreak="break-all">
                      {c.clientId}
                    </Table.Cell>
                    <Table.Cell fontFamily="mono" fontSize="xs" wordBreak="break-all">
                      <Stack gap="0" as="ul" listStyleType="none">
                        {c.redirectUris.map((uri) => (
                          <li key={uri}>{uri}</li>
                        ))}
                      </Stack>
                    </Table.Cell>
                    <Table.Cell>{c.lastUsedAt ? formatDateTime(c.lastUsedAt) : T.NEVER}</Table.Cell>
                    <Table.Cell textAlign="end">
                      <HStack gap="2" justify="end" wrap="wrap">
                        <Button
                          size="xs"
                          variant="outline"
                          aria-label={`${T.EDIT} ${c.name}`}
                          onClick={() => startEdit(c)}
                        >
                          {T.EDIT}
                        </Button>
                        {c.type === 'confidential' && (
                          <Button
                            size="xs"
                            variant="outline"
                            aria-label={`${T.ROTATE} ${c.name}`}
                            onClick={() => setRotating(c)}
                          >
                            {T.ROTATE}
                          </Button>
                        )}
                        <Button
                          size="xs"
                          variant="outline"
                          colorPalette="red"
                          aria-label={`${T.REMOVE} ${c.name}`}
                          onClick={() => setRemoving(c)}
                        >
                          {T.REMOVE}
                        </Button>
                      </HStack>
                    </Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          </Table.ScrollArea>
        )}
      </Stack>
      <AppDialog
        open={editing !== null}
        onClose={() => setEditing(null)}
        title={T.EDIT_TITLE}
        testId="edit-application-dialog"
        closeButton
        noValidate
        onSubmit={editForm.handleSubmit((v) => editing && update.mutate({ id: editing.id, ...applicationFields(v) }))}
        footer={
          <DialogActions
            onCancel={() => setEditing(null)}
            cancelLabel={T.CANCEL}
            confirmLabel={T.SAVE}
            submit
            loading={update.isPending}
          />
        }
      >
        <ApplicationFields form={editForm} editing />
      </AppDialog>
      <ConfirmDialog
        open={rotating !== null}
        title={T.ROTATE_TITLE}
        message={rotating ? T.rotateQuestion(rotating.name) : ''}
        confirmLabel={T.ROTATE}
        cancelLabel={T.CANCEL}
        loading={rotate.isPending}
        onConfirm={() => rotating && rotate.mutate(rotating)}
        onClose={() => setRotating(null)}
      />
      <ConfirmDialog
        open={removing !== null}
        title={T.REMOVE_TITLE}
        message={removing ? T.removeQuestion(removing.name) : ''}
        confirmLabel={T.REMOVE}
        cancelLabel={T.CANCEL}
        loading={remove.isPending}
        onConfirm={() => removing && remove.mutate(removing)}
        onClose={() => setRemoving(null)}
      />
    </Box>
  );
}
