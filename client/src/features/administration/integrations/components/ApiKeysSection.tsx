import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Badge, Checkbox, Field, Fieldset, Heading, HStack, Input, Stack, Table, Text } from '@chakra-ui/react';
import {
  API_KEY_MESSAGES,
  API_KEY_NAME_MAX,
  API_KEY_SCOPE_LABELS,
  API_KEY_SCOPES,
  type ApiKeyItem,
  type ApiKeyScope,
} from '@shared/administration/api-keys';
import { useIssuedCredentials } from '@/components/issued-credentials';
import { SectionUnavailable } from '@/components/SectionUnavailable';
import { AddForm } from '@/components/ui/add-form';
import { DataTable } from '@/components/ui/data-table';
import { RowButton } from '@/components/ui/row-button';
import { formatDate, formatDateTime } from '@/lib/formats';
import { ruled } from '@/lib/forms';
import { apiKeysApi, useApiKeys, useReloadIntegrations } from '../api/integrations-api';
import { INTEGRATIONS_TEXTS } from '../integrations-texts';

const T = INTEGRATIONS_TEXTS.API_KEYS;
const C = T.COLUMNS;

/** The last moment of a chosen day (YYYY-MM-DD), where the browser is. */
const endOfDay = (day: string) => new Date(`${day}T23:59:59`);

const keySchema = z.object({
  name: ruled((v) =>
    !v.trim()
      ? API_KEY_MESSAGES.NAME_REQUIRED
      : v.trim().length > API_KEY_NAME_MAX
        ? API_KEY_MESSAGES.NAME_TOO_LONG
        : null,
  ),
  scopes: z.array(z.enum(API_KEY_SCOPES)).min(1, API_KEY_MESSAGES.SCOPES_REQUIRED),
  expires: ruled((v) => (v && !(endOfDay(v).getTime() > Date.now()) ? T.EXPIRY_PAST : null)),
});
type KeyForm = z.infer<typeof keySchema>;

/** The organisation's API keys: create (name, scopes, expiry; the key shown once), list with last use, revoke. */
export function ApiKeysSection({ organisationId, enabled }: { organisationId?: number; enabled: boolean }) {
  const keys = useApiKeys(organisationId, enabled);
  const reload = useReloadIntegrations();
  const credentials = useIssuedCredentials({
    create: apiKeysApi.create,
    revoke: (k: ApiKeyItem) => apiKeysApi.revoke(k.id),
    reload,
    secretOf: (made) => made.key,
    testId: 'new-api-key',
    texts: T,
  });
  const form = useForm<KeyForm>({
    resolver: zodResolver(keySchema),
    defaultValues: { name: '', scopes: [], expires: '' },
  });
  const errors = form.formState.errors;

  const submit = form.handleSubmit(({ name, scopes, expires }) =>
    credentials.create.mutate(
      {
        name: name.trim(),
        scopes,
        ...(expires ? { expiresAt: endOfDay(expires).toISOString() } : {}),
        organisationId,
      },
      { onSuccess: () => form.reset() },
    ),
  );

  return (
    <Stack gap="4" as="section" aria-labelledby="api-keys-title" data-testid="api-keys-section">
      <Heading as="h2" size="lg" id="api-keys-title">
        {T.TITLE}
      </Heading>
      <Text color="fg.muted">{T.INTRO}</Text>
      {credentials.shownOnce}
      <AddForm label={T.CREATE} onSubmit={submit} loading={credentials.create.isPending}>
        <HStack align="start" gap="3" wrap="wrap">
          <Field.Root invalid={!!errors.name} required maxW="sm">
            <Field.Label>
              {T.NAME}
              <Field.RequiredIndicator />
            </Field.Label>
            <Input placeholder="HR system" autoComplete="off" {...form.register('name')} />
            <Field.ErrorText>{errors.name?.message}</Field.ErrorText>
          </Field.Root>
          <Field.Root invalid={!!errors.expires} maxW="3xs">
            <Field.Label>{T.EXPIRES}</Field.Label>
            <Input type="date" {...form.register('expires')} />
            <Field.ErrorText>{errors.expires?.message}</Field.ErrorText>
          </Field.Root>
        </HStack>
        <Controller
          control={form.control}
          name="scopes"
          render={({ field }) => (
            <Fieldset.Root invalid={!!errors.scopes}>
              <Fieldset.Legend>{T.SCOPES}</Fieldset.Legend>
              <Stack gap="1">
                {API_KEY_SCOPES.map((scope) => (
                  <Checkbox.Root
                    key={scope}
                    colorPalette="blue"
                    checked={field.value.includes(scope)}
                    onCheckedChange={(e) =>
                      field.onChange(
                        API_KEY_SCOPES.filter((s) =>
                          s === scope ? e.checked === true : field.value.includes(s as ApiKeyScope),
                        ),
                      )
                    }
                  >
                    <Checkbox.HiddenInput />
                    <Checkbox.Control />
                    <Checkbox.Label>
                      <Text as="span" fontFamily="mono">
                        {scope}
                      </Text>
                      {' — '}
                      {API_KEY_SCOPE_LABELS[scope]}
                    </Checkbox.Label>
                  </Checkbox.Root>
                ))}
              </Stack>
              <Fieldset.ErrorText>{errors.scopes?.message}</Fieldset.ErrorText>
            </Fieldset.Root>
          )}
        />
      </AddForm>
      {keys.isError && <SectionUnavailable testId="api-keys-unavailable" />}
      {keys.data && keys.data.length === 0 && <Text>{T.NONE}</Text>}
      {keys.data && keys.data.length > 0 && (
        <DataTable
          data-testid="api-keys"
          columns={[C.NAME, C.KEY, C.SCOPES, C.CREATED, C.EXPIRES, C.LAST_USED]}
          actions={INTEGRATIONS_TEXTS.ACTIONS}
        >
          {keys.data.map((k) => (
            <Table.Row key={k.id} data-testid="api-key-row">
              <Table.Cell>{k.name}</Table.Cell>
              <Table.Cell fontFamily="mono">{k.prefix}…</Table.Cell>
              <Table.Cell>
                <HStack gap="1" wrap="wrap">
                  {k.scopes.map((s) => (
                    <Badge key={s} variant="outline">
                      {s}
                    </Badge>
                  ))}
                </HStack>
              </Table.Cell>
              <Table.Cell>{formatDateTime(k.createdAt)}</Table.Cell>
              <Table.Cell>{k.expiresAt ? formatDate(k.expiresAt) : T.NO_EXPIRY}</Table.Cell>
              <Table.Cell>{k.lastUsedAt ? formatDateTime(k.lastUsedAt) : INTEGRATIONS_TEXTS.NEVER}</Table.Cell>
              <Table.Cell textAlign="end">
                <RowButton label={T.REVOKE} of={k.name} colorPalette="red" onClick={() => credentials.revoke.ask(k)} />
              </Table.Cell>
            </Table.Row>
          ))}
        </DataTable>
      )}
      {credentials.revoke.dialog}
    </Stack>
  );
}
