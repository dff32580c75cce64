import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Badge, Code, Field, HStack, Stack, Table, Text } from '@chakra-ui/react';
import { useMutation } from '@tanstack/react-query';
import type { OidcClientItem } from '@shared/identity/oidc-clients';
import { OrganisationPage } from '@/components/OrganisationPage';
import { SecretShownOnce } from '@/components/SecretShownOnce';
import { SectionUnavailable } from '@/components/SectionUnavailable';
import { AddForm } from '@/components/ui/add-form';
import { useConfirmedAction } from '@/components/ui/confirm-action';
import { CopyButton } from '@/components/ui/copy-button';
import { DataTable } from '@/components/ui/data-table';
import { useEditDialog } from '@/components/ui/edit-dialog';
import { RowButton } from '@/components/ui/row-button';
import { toaster, toastFailure } from '@/components/ui/toaster';
import { useAppInfo } from '@/lib/app-info';
import { useAuth } from '@/lib/auth';
import { formatDateTime } from '@/lib/formats';
import { useChosenOrganisation } from '@/lib/organisation-scope';
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
        <CopyButton value={issuer.data} label={T.COPY_ISSUER} size="xs" variant="outline" />
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
  const { user } = useAuth();
  const { support, organisationId } = useChosenOrganisation();
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
  const failed = toastFailure(T.FAILED);

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
  const edit = useEditDialog({
    form: editForm,
    valuesOf: (c: OidcClientItem) => applicationForm(c),
    save: (c, v) => oidcClientsApi.update({ id: c.id, ...applicationFields(v) }),
    reload,
    onError: failed,
    fields: <ApplicationFields form={editForm} editing />,
    testId: 'edit-application-dialog',
    texts: { title: T.EDIT_TITLE, saved: T.SAVED, cancelLabel: T.CANCEL, confirmLabel: T.SAVE },
  });
  const rotate = useConfirmedAction({
    mutationFn: (c: OidcClientItem) => oidcClientsApi.rotateSecret(c.id),
    onSuccess: (r, c) => setSecret({ value: r.clientSecret, clientId: c.clientId }),
    onError: failed,
    question: { title: T.ROTATE_TITLE, message: (c) => T.rotateQuestion(c.name), confirmLabel: T.ROTATE },
  });
  const remove = useConfirmedAction({
    mutationFn: (c: OidcClientItem) => oidcClientsApi.remove(c.id),
    onSuccess: () => {
      toaster.create({ type: 'success', title: T.REMOVED });
      void reload();
    },
    onError: failed,
    question: { title: T.REMOVE_TITLE, message: (c) => T.removeQuestion(c.name), confirmLabel: T.REMOVE },
  });

  return (
    <OrganisationPage
      name="applications"
      texts={{ TITLE: T.TITLE, INTRO: deployment ? T.DEPLOYMENT_INTRO : T.INTRO }}
      gap="6"
      maxW="5xl"
    >
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
      <AddForm
        label={T.REGISTER}
        onSubmit={addForm.handleSubmit((v) => create.mutate({ ...applicationFields(v), type: v.type, organisationId }))}
        loading={create.isPending}
      >
        <ApplicationFields form={addForm} editing={false} />
      </AddForm>
      {clients.isError && <SectionUnavailable testId="applications-unavailable" title={T.UNAVAILABLE} />}
      {clients.data && clients.data.length === 0 && <Text>{T.NONE}</Text>}
      {clients.data && clients.data.length > 0 && (
        <DataTable
          data-testid="applications"
          aria-label={T.TITLE}
          header={{ scope: 'col' }}
          columns={[C.NAME, C.TYPE, C.CLIENT_ID, C.REDIRECT_URIS, C.LAST_USED]}
          actions={T.ACTIONS}
        >
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
                  <RowButton label={T.EDIT} of={c.name} onClick={() => edit.start(c)} />
                  {c.type === 'confidential' && (
                    <RowButton label={T.ROTATE} of={c.name} onClick={() => rotate.ask(c)} />
                  )}
                  <RowButton label={T.REMOVE} of={c.name} colorPalette="red" onClick={() => remove.ask(c)} />
                </HStack>
              </Table.Cell>
            </Table.Row>
          ))}
        </DataTable>
      )}
      {edit.dialog}
      {rotate.dialog}
      {remove.dialog}
    </OrganisationPage>
  );
}
