import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Button, Code, Field, HStack, Input, Table, Text } from '@chakra-ui/react';
import { CAPABILITY_ROLES, Role } from '@shared/roles';
import {
  PROVISIONING_TEXTS as T,
  SCIM_BASE_PATH,
  SCIM_MESSAGES,
  SCIM_TOKEN_NAME_MAX,
  ScimTokenItem,
} from '@shared/identity/scim';
import { ChosenOrganisationPicker } from '@/components/ChosenOrganisationPicker';
import { useIssuedCredentials } from '@/components/issued-credentials';
import { OrganisationPage } from '@/components/OrganisationPage';
import { CopyButton } from '@/components/ui/copy-button';
import { DataTable } from '@/components/ui/data-table';
import { RowButton } from '@/components/ui/row-button';
import { errorMessage } from '@/lib/api';
import { useAuth } from '@/lib/auth';
import { useHasRole } from '@/lib/authorization';
import { formatDateTime } from '@/lib/formats';
import { ruled } from '@/lib/forms';
import { useOrganisationScope } from '@/lib/organisation-scope';
import { provisioningApi, useReloadScimTokens, useScimTokens } from '../api/provisioning-api';

const tokenSchema = z.object({
  name: ruled((v) =>
    !v.trim()
      ? SCIM_MESSAGES.TOKEN_NAME_REQUIRED
      : v.trim().length > SCIM_TOKEN_NAME_MAX
        ? SCIM_MESSAGES.TOKEN_NAME_TOO_LONG
        : null,
  ),
});
type TokenForm = z.infer<typeof tokenSchema>;

/** The SCIM address and a copy button. */
function BaseUrl() {
  const url = `${window.location.origin}${SCIM_BASE_PATH}`;
  return (
    <Field.Root>
      <Field.Label>{T.BASE_URL}</Field.Label>
      <HStack>
        <Code data-testid="scim-base-url" px="2" py="1">
          {url}
        </Code>
        <CopyButton value={url} label="Copy SCIM address" text="Copy" size="xs" variant="outline" />
      </HStack>
    </Field.Root>
  );
}

/**
 * Directory Provisioning (users/provisioning): the organisation's provisioning tokens for SCIM 2.0. The site admin
 * (E-Support with ?organisationId=) creates and revokes them; administrators see the list.
 */
export function ProvisioningPage() {
  const { roles, user } = useAuth();
  const manager = useHasRole(CAPABILITY_ROLES.PROVISIONING_MANAGE);
  const scope = useOrganisationScope();
  const organisationId = scope.organisationId;
  const support = roles.includes(Role.E_SUPPORT);
  const supportWithoutOrganisation = support && !organisationId;
  // Asked once the caller is known: E-Support without an organisation has no tokens to read.
  const tokens = useScimTokens(organisationId, !!user && !supportWithoutOrganisation);
  const reload = useReloadScimTokens();
  const credentials = useIssuedCredentials({
    create: provisioningApi.create,
    revoke: (t: ScimTokenItem) => provisioningApi.revoke(t.id),
    reload,
    secretOf: (made) => made.token,
    testId: 'new-scim-token',
    texts: T,
  });

  const form = useForm<TokenForm>({ resolver: zodResolver(tokenSchema), defaultValues: { name: '' } });
  const nameError = form.formState.errors.name?.message;

  if (supportWithoutOrganisation)
    return (
      <OrganisationPage name="provisioning" texts={{ TITLE: T.TITLE }} gap="4">
        <Text>{scope.inArea ? T.SUPPORT_PICK_ABOVE : T.SUPPORT_PICK}</Text>
        <ChosenOrganisationPicker
          label={T.ORGANISATION}
          emptyLabel={T.CHOOSE_ORGANISATION}
          testId="provisioning-organisation"
        />
      </OrganisationPage>
    );

  return (
    <OrganisationPage name="provisioning" texts={{ TITLE: T.TITLE }} gap="5" maxW="4xl">
      <Text>{T.INTRO}</Text>
      <BaseUrl />
      {credentials.shownOnce}
      {manager ? (
        <form
          noValidate
          onSubmit={form.handleSubmit(({ name }) =>
            credentials.create.mutate({ name: name.trim(), organisationId }, { onSuccess: () => form.reset() }),
          )}
        >
          <HStack align="end" gap="3">
            <Field.Root invalid={!!nameError} required maxW="sm">
              <Field.Label>
                {T.NAME}
                <Field.RequiredIndicator />
              </Field.Label>
              <Input placeholder="Microsoft Entra ID" autoComplete="off" {...form.register('name')} />
              <Field.ErrorText>{nameError}</Field.ErrorText>
            </Field.Root>
            <Button type="submit" colorPalette="blue" loading={credentials.create.isPending}>
              {T.CREATE}
            </Button>
          </HStack>
        </form>
      ) : (
        <Text color="fg.muted">{T.READ_ONLY}</Text>
      )}
      {tokens.isError && <Text color="fg.error">{errorMessage(tokens.error, T.FAILED)}</Text>}
      {tokens.data && tokens.data.length === 0 && <Text>{T.NONE}</Text>}
      {tokens.data && tokens.data.length > 0 && (
        <DataTable
          data-testid="scim-tokens"
          columns={['Name', 'Created', 'Created by', 'Last used']}
          actions={manager ? 'Actions' : undefined}
        >
          {tokens.data.map((t) => (
            <Table.Row key={t.id} data-testid="scim-token-row">
              <Table.Cell>{t.name}</Table.Cell>
              <Table.Cell>{formatDateTime(t.createdAt)}</Table.Cell>
              <Table.Cell>{t.createdBy ?? '—'}</Table.Cell>
              <Table.Cell>{t.lastUsedAt ? formatDateTime(t.lastUsedAt) : T.NEVER_USED}</Table.Cell>
              {manager && (
                <Table.Cell textAlign="end">
                  <RowButton
                    label={T.REVOKE}
                    of={t.name}
                    colorPalette="red"
                    onClick={() => credentials.revoke.ask(t)}
                  />
                </Table.Cell>
              )}
            </Table.Row>
          ))}
        </DataTable>
      )}
      {credentials.revoke.dialog}
    </OrganisationPage>
  );
}
