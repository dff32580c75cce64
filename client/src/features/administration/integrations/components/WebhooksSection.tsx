import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Badge, Box, Checkbox, Field, Heading, HStack, Input, Stack, Table, Text } from '@chakra-ui/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  WEBHOOK_ALL_EVENTS,
  WEBHOOK_EVENT_TYPES,
  type WebhookDeliveryItem,
  type WebhookEndpointItem,
  type WebhookSubscription,
} from '@shared/administration/integrations';
import { SecretShownOnce } from '@/components/SecretShownOnce';
import { SectionUnavailable } from '@/components/SectionUnavailable';
import { AddForm } from '@/components/ui/add-form';
import { useConfirmedAction } from '@/components/ui/confirm-action';
import { DataTable } from '@/components/ui/data-table';
import { useEditDialog } from '@/components/ui/edit-dialog';
import { RowButton } from '@/components/ui/row-button';
import { toaster, toastFailure } from '@/components/ui/toaster';
import { formatDateTime } from '@/lib/formats';
import { ruled } from '@/lib/forms';
import { queryKeys } from '@/lib/query-keys';
import { useDeliveries, useReloadIntegrations, useWebhooks, webhooksApi } from '../api/integrations-api';
import { INTEGRATIONS_TEXTS } from '../integrations-texts';
import { EventsField } from './EventsField';

const T = INTEGRATIONS_TEXTS.WEBHOOKS;
const C = T.COLUMNS;
const SUBSCRIPTIONS = [WEBHOOK_ALL_EVENTS, ...WEBHOOK_EVENT_TYPES] as const;

const endpointSchema = z.object({
  url: ruled((v) => (/^https?:\/\/\S+$/i.test(v.trim()) ? null : T.URL_INVALID)),
  events: z.array(z.enum(SUBSCRIPTIONS)).min(1, T.EVENTS_REQUIRED),
  description: z.string().max(200),
  enabled: z.boolean(),
});
type EndpointForm = z.infer<typeof endpointSchema>;

/** The fields of an endpoint, for adding one and for editing one. */
function EndpointFields({ form, editing }: { form: ReturnType<typeof useForm<EndpointForm>>; editing: boolean }) {
  const errors = form.formState.errors;
  return (
    <Stack gap="3">
      <Field.Root invalid={!!errors.url} required>
        <Field.Label>
          {T.URL}
          <Field.RequiredIndicator />
        </Field.Label>
        <Input type="url" placeholder="https://hooks.example.com/portal" autoComplete="off" {...form.register('url')} />
        <Field.ErrorText>{errors.url?.message}</Field.ErrorText>
      </Field.Root>
      <Field.Root>
        <Field.Label>{T.DESCRIPTION}</Field.Label>
        <Input autoComplete="off" maxLength={200} {...form.register('description')} />
      </Field.Root>
      <Controller
        control={form.control}
        name="events"
        render={({ field }) => (
          <EventsField value={field.value} onChange={field.onChange} error={errors.events?.message} />
        )}
      />
      {editing && (
        <Controller
          control={form.control}
          name="enabled"
          render={({ field }) => (
            <Checkbox.Root
              colorPalette="blue"
              checked={field.value}
              onCheckedChange={(e) => field.onChange(e.checked === true)}
            >
              <Checkbox.HiddenInput />
              <Checkbox.Control />
              <Checkbox.Label>{T.ENABLED}</Checkbox.Label>
            </Checkbox.Root>
          )}
        />
      )}
    </Stack>
  );
}

const blank: EndpointForm = { url: '', events: [WEBHOOK_ALL_EVENTS], description: '', enabled: true };

/** The recent deliveries of one endpoint, newest first, each failed or pending one with a Retry button. */
function Deliveries({ endpoint }: { endpoint: WebhookEndpointItem }) {
  const deliveries = useDeliveries(endpoint.id);
  const client = useQueryClient();
  const retry = useMutation({
    mutationFn: webhooksApi.retry,
    onSuccess: () => {
      toaster.create({ type: 'success', title: T.RETRIED });
      void client.invalidateQueries({ queryKey: queryKeys.integrations.deliveries(endpoint.id) });
    },
    onError: toastFailure(T.FAILED),
  });
  if (deliveries.isError) return <SectionUnavailable testId="deliveries-unavailable" />;
  if (!deliveries.data) return null;
  if (deliveries.data.length === 0) return <Text>{T.NO_DELIVERIES}</Text>;
  return (
    <DataTable
      data-testid="webhook-deliveries"
      aria-label={`${T.DELIVERIES}: ${endpoint.url}`}
      columns={[C.EVENT, C.STATUS, C.ATTEMPTS, C.CODE, C.ERROR, C.NEXT]}
      actions={INTEGRATIONS_TEXTS.ACTIONS}
    >
      {deliveries.data.map((d) => (
        <Table.Row key={d.id} data-testid="webhook-delivery-row">
          <Table.Cell fontFamily="mono">{d.type}</Table.Cell>
          <Table.Cell>
            <Badge colorPalette={d.status === 'succeeded' ? 'green' : d.status === 'failed' ? 'red' : 'gray'}>
              {d.status}
            </Badge>
          </Table.Cell>
          <Table.Cell>{d.attempts}</Table.Cell>
          <Table.Cell>{d.lastStatusCode ?? INTEGRATIONS_TEXTS.NONE_YET}</Table.Cell>
          <Table.Cell maxW="xs" wordBreak="break-word">
            {d.lastError ?? INTEGRATIONS_TEXTS.NONE_YET}
          </Table.Cell>
          <Table.Cell>{d.nextAttemptAt ? formatDateTime(d.nextAttemptAt) : INTEGRATIONS_TEXTS.NONE_YET}</Table.Cell>
          <Table.Cell textAlign="end">
            {d.status !== 'succeeded' && (
              <RowButton
                label={T.RETRY}
                of={`${d.type} ${d.eventId}`}
                loading={retry.isPending && retry.variables?.deliveryId === d.id}
                onClick={() => retry.mutate({ webhookId: endpoint.id, deliveryId: d.id })}
              />
            )}
          </Table.Cell>
        </Table.Row>
      ))}
    </DataTable>
  );
}

/** The organisation's webhook endpoints: add (the secret shown once), edit, rotate, test, remove, deliveries. */
export function WebhooksSection({ organisationId, enabled }: { organisationId?: number; enabled: boolean }) {
  const endpoints = useWebhooks(organisationId, enabled);
  const reload = useReloadIntegrations();
  const queryClient = useQueryClient();
  const [secret, setSecret] = useState<{ value: string; previousValidUntil?: string } | null>(null);
  const [open, setOpen] = useState<number | null>(null);
  const addForm = useForm<EndpointForm>({ resolver: zodResolver(endpointSchema), defaultValues: blank });
  const editForm = useForm<EndpointForm>({ resolver: zodResolver(endpointSchema), defaultValues: blank });
  const failed = toastFailure(T.FAILED);

  const create = useMutation({
    mutationFn: webhooksApi.create,
    onSuccess: (made) => {
      setSecret({ value: made.secret });
      addForm.reset(blank);
      void reload();
    },
    onError: failed,
  });
  const rotate = useConfirmedAction({
    mutationFn: (e: WebhookEndpointItem) => webhooksApi.rotate(e.id),
    onSuccess: (r) => setSecret({ value: r.secret, previousValidUntil: r.previousSecretValidUntil }),
    onError: failed,
    question: { title: T.ROTATE_TITLE, message: (e) => T.rotateQuestion(e.url), confirmLabel: T.ROTATE },
  });
  const test = useMutation({
    mutationFn: (e: WebhookEndpointItem) => webhooksApi.test(e.id),
    onSuccess: (delivery, e) => {
      toaster.create({ type: 'success', title: T.TESTED });
      queryClient.setQueryData<WebhookDeliveryItem[]>(queryKeys.integrations.deliveries(e.id), (list) =>
        list ? [delivery, ...list.filter((d) => d.id !== delivery.id)] : list,
      );
      setOpen(e.id);
      void reload();
    },
    onError: failed,
  });
  const remove = useConfirmedAction({
    mutationFn: (e: WebhookEndpointItem) => webhooksApi.remove(e.id),
    onSuccess: () => {
      toaster.create({ type: 'success', title: T.REMOVED });
      void reload();
    },
    onError: failed,
    question: {
      title: T.REMOVE_TITLE,
      message: (e) => T.removeQuestion(e.url),
      confirmLabel: INTEGRATIONS_TEXTS.REMOVE,
    },
  });

  const fields = ({ url, events, description }: EndpointForm) => ({
    url: url.trim(),
    events: (events.includes(WEBHOOK_ALL_EVENTS) ? [WEBHOOK_ALL_EVENTS] : events) as WebhookSubscription[],
    description: description.trim(),
  });
  const edit = useEditDialog({
    form: editForm,
    valuesOf: (e: WebhookEndpointItem) => ({
      url: e.url,
      events: e.events as WebhookSubscription[],
      description: e.description ?? '',
      enabled: e.enabled,
    }),
    save: (e, v) => webhooksApi.update({ id: e.id, ...fields(v), enabled: v.enabled }),
    reload,
    onError: failed,
    fields: <EndpointFields form={editForm} editing />,
    testId: 'edit-webhook-dialog',
    texts: {
      title: T.EDIT_TITLE,
      saved: T.SAVED,
      cancelLabel: INTEGRATIONS_TEXTS.CANCEL,
      confirmLabel: INTEGRATIONS_TEXTS.SAVE,
    },
  });

  return (
    <Stack gap="4" as="section" aria-labelledby="webhooks-title" data-testid="webhooks-section">
      <Heading as="h2" size="lg" id="webhooks-title">
        {T.TITLE}
      </Heading>
      <Text color="fg.muted">{T.INTRO}</Text>
      {secret && (
        <SecretShownOnce
          title={T.SECRET_TITLE}
          text={T.SECRET}
          value={secret.value}
          note={secret.previousValidUntil && T.previousSignsUntil(formatDateTime(secret.previousValidUntil))}
          copyLabel={T.COPY}
          testId="new-webhook-secret"
          onDone={() => setSecret(null)}
        />
      )}
      {endpoints.isError ? (
        <SectionUnavailable testId="webhooks-unavailable" />
      ) : (
        <>
          <AddForm
            label={T.ADD}
            onSubmit={addForm.handleSubmit((v) => create.mutate({ ...fields(v), organisationId }))}
            loading={create.isPending}
          >
            <EndpointFields form={addForm} editing={false} />
          </AddForm>
          {endpoints.data && endpoints.data.length === 0 && <Text>{T.NONE}</Text>}
          {endpoints.data?.map((e) => (
            <Box key={e.id} borderWidth="1px" borderRadius="md" p="3" data-testid="webhook-row">
              <HStack justify="space-between" wrap="wrap" gap="2">
                <Stack gap="1">
                  <Text fontFamily="mono" wordBreak="break-all">
                    {e.url}
                  </Text>
                  {e.description && <Text color="fg.muted">{e.description}</Text>}
                  <HStack gap="1" wrap="wrap">
                    {!e.enabled && <Badge colorPalette="red">{T.DISABLED}</Badge>}
                    {e.events.map((ev) => (
                      <Badge key={ev} variant="outline">
                        {ev === WEBHOOK_ALL_EVENTS ? T.ALL_EVENTS : ev}
                      </Badge>
                    ))}
                  </HStack>
                </Stack>
                <HStack gap="2" wrap="wrap">
                  <RowButton label={T.EDIT} of={e.url} onClick={() => edit.start(e)} />
                  <RowButton label={T.ROTATE} of={e.url} onClick={() => rotate.ask(e)} />
                  <RowButton
                    label={T.TEST}
                    of={e.url}
                    loading={test.isPending && test.variables?.id === e.id}
                    onClick={() => test.mutate(e)}
                  />
                  <RowButton
                    label={open === e.id ? T.HIDE_DELIVERIES : T.SHOW_DELIVERIES}
                    of={e.url}
                    aria-expanded={open === e.id}
                    onClick={() => setOpen(open === e.id ? null : e.id)}
                  />
                  <RowButton
                    label={INTEGRATIONS_TEXTS.REMOVE}
                    of={e.url}
                    colorPalette="red"
                    onClick={() => remove.ask(e)}
                  />
                </HStack>
              </HStack>
              {open === e.id && (
                <Stack mt="3" gap="2">
                  <Heading as="h3" size="sm">
                    {T.DELIVERIES}
                  </Heading>
                  <Deliveries endpoint={e} />
                </Stack>
              )}
            </Box>
          ))}
        </>
      )}
      {edit.dialog}
      {rotate.dialog}
      {remove.dialog}
    </Stack>
  );
}
