import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Alert, Box, Button, Clipboard, Code, Field, HStack, Input, Stack, Table, Text } from '@chakra-ui/react';
import { useMutation } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { CAPABILITY_ROLES, Role } from '@shared/roles';
import {
  NewScimToken,
  PROVISIONING_TEXTS as T,
  SCIM_BASE_PATH,
  SCIM_MESSAGES,
  SCIM_TOKEN_NAME_MAX,
  ScimTokenItem,
} from '@shared/identity/scim';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { OrganisationPicker } from '@/components/ui/organisation-picker';
import { PageHeader } from '@/components/ui/page-header';
import { toaster } from '@/components/ui/toaster';
import { errorMessage } from '@/lib/api';
import { useAuth } from '@/lib/auth';
import { useHasRole } from '@/lib/authorization';
import { formatDateTime } from '@/lib/formats';
import { ruled } from '@/lib/forms';
import { useOrganisationChoices } from '@/lib/organisation-choices';
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
        <Clipboard.Root value={url}>
          <Clipboard.Trigger asChild>
            <Button size="xs" variant="outline" aria-label="Copy SCIM address">
              <Clipboard.Indicator copied="Copied">Copy</Clipboard.Indicator>
            </Button>
          </Clipboard.Trigger>
        </Clipboard.Root>
      </HStack>
    </Field.Root>
  );
}

/** The token just created, shown this once, with a copy button. */
function NewToken({ made, onDone }: { made: NewScimToken; onDone: () => void }) {
  return (
    <Alert.Root status="warning" data-testid="new-scim-token" alignItems="start">
      <Alert.Indicator />
      <Alert.Content gap="2">
        <Alert.Title>{T.CREATED_TITLE}</Alert.Title>
        <Alert.Description>{T.CREATED}</Alert.Description>
        <Code data-testid="new-scim-token-value" wordBreak="break-all" px="2" py="1">
          {made.token}
        </Code>
        <HStack>
          <Clipboard.Root value={made.token}>
            <Clipboard.Trigger asChild>
              <Button size="sm" colorPalette="blue" aria-label={T.COPY}>
                <Clipboard.Indicator copied="Copied">{T.COPY}</Clipboard.Indicator>
              </Button>
            </Clipboard.Trigger>
          </Clipboard.Root>
          <Button size="sm" variant="outline" onClick={onDone}>
            {T.DONE}
          </Button>
        </HStack>
      </Alert.Content>
    </Alert.Root>
  );
}

/**
 * Directory Provisioning (users/provisioning): the organisation's provisioning tokens for SCIM 2.0. The site admin
 * (E-Support with ?organisationId=) creates and revokes them; administrators see the list.
 */
export function ProvisioningPage() {
  const { roles, user } = useAuth();
  const manager = useHasRole(CAPABILITY_ROLES.PROVISIONING_MANAGE);
  const [, setParams] = useSearchParams();
  const scope = useOrganisationScope();
  const organisationId = scope.organisationId;
  const support = roles.includes(Role.E_SUPPORT);
  const supportWithoutOrganisation = support && !organisationId;
  const organisations = useOrganisationChoices(support && !scope.inArea);
  // Asked once the caller is known: E-Support without an organisation has no tokens to read.
  const tokens = useScimTokens(organisationId, !!user && !supportWithoutOrganisation);
  const reload = useReloadScimTokens();
  const [made, setMade] = useState<NewScimToken | null>(null);
  const [revoking, setRevoking] = useState<ScimTokenItem | null>(null);

  const form = useForm<TokenForm>({ resolver: zodResolver(tokenSchema), defaultValues: { name: '' } });
  const nameError = form.formState.errors.name?.message;

  const create = useMutation({
    mutationFn: provisioningApi.create,
    onSuccess: (token) => {
      setMade(token);
      form.reset();
      void reload();
    },
    onError: (e) => toaster.create({ type: 'error', title: errorMessage(e, T.FAILED) }),
  });
  const revoke = useMutation({
    mutationFn: (t: ScimTokenItem) => provisioningApi.revoke(t.id),
    onSuccess: () => {
      toaster.create({ type: 'success', title: T.REVOKED });
      setRevoking(null);
      void reload();
    },
    onError: (e) => toaster.create({ type: 'error', title: errorMessage(e, T.FAILED) }),
  });

  if (supportWithoutOrganisation)
    return (
      <Box data-testid="provisioning-page">
        <PageHeader title={T.TITLE} />
        <Stack gap="4">
          <Text>{scope.inArea ? T.SUPPORT_PICK_ABOVE : T.SUPPORT_PICK}</Text>
          {!scope.inArea && (
            <OrganisationPicker
              label={T.ORGANISATION}
              organisations={organisations.data}
              emptyLabel={T.CHOOSE_ORGANISATION}
              testId="provisioning-organisation"
              value=""
              onChange={(e) => e.target.value && setParams({ organisationId: e.target.value })}
            />
          )}
        </Stack>
      </Box>
    );

  return (
    <Box data-testid="provisioning-page">
      <PageHeader title={T.TITLE} />
      <Stack gap="5" maxW="4xl">
        <Text>{T.INTRO}</Text>
        <BaseUrl />
        {made && <NewToken made={made} onDone={() => setMade(null)} />}
        {manager ? (
          <form
            noValidate
            onSubmit={form.handleSubmit(({ name }) => create.mutate({ name: name.trim(), organisationId }))}
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
              <Button type="submit" colorPalette="blue" loading={create.isPending}>
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
          <Table.ScrollArea>
            <Table.Root size="sm" data-testid="scim-tokens">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>Name</Table.ColumnHeader>
                  <Table.ColumnHeader>Created</Table.ColumnHeader>
                  <Table.ColumnHeader>Created by</Table.ColumnHeader>
                  <Table.ColumnHeader>Last used</Table.ColumnHeader>
                  {manager && (
                    <Table.ColumnHeader>
                      <Box srOnly>Actions</Box>
                    </Table.ColumnHeader>
                  )}
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {tokens.data.map((t) => (
                  <Table.Row key={t.id} data-testid="scim-token-row">
                    <Table.Cell>{t.name}</Table.Cell>
                    <Table.Cell>{formatDateTime(t.createdAt)}</Table.Cell>
                    <Table.Cell>{t.createdBy ?? '—'}</Table.Cell>
                    <Table.Cell>{t.lastUsedAt ? formatDateTime(t.lastUsedAt) : T.NEVER_USED}</Table.Cell>
                    {manager && (
                      <Table.Cell textAlign="end">
                        <Button
                          size="xs"
                          variant="outline"
                          colorPalette="red"
                          aria-label={`${T.REVOKE} ${t.name}`}
                          onClick={() => setRevoking(t)}
                        >
                          {T.REVOKE}
                        </Button>
                      </Table.Cell>
                    )}
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          </Table.ScrollArea>
        )}
      </Stack>
      <ConfirmDialog
        open={revoking !== null}
        title={T.REVOKE_TITLE}
        message={revoking ? T.revokeQuestion(revoking.name) : ''}
        confirmLabel={T.REVOKE}
        cancelLabel="Cancel"
        loading={revoke.isPending}
        onConfirm={() => revoking && revoke.mutate(revoking)}
        onClose={() => setRevoking(null)}
      />
    </Box>
  );
}
