import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Badge, Box, Button, Checkbox, Field, Heading, HStack, Input, Stack, Table, Text } from '@chakra-ui/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  WEBHOOK_ALL_EVENTS,
  WEBHOOK_EVENT_TYPES,
  type WebhookDeliveryItem,
  type WebhookEndpointItem,
  type WebhookSubscription,
} from '@shared/administration/integrations';
import { AppDialog, DialogActions } from '@/components/ui/app-dialog';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { toaster } from '@/components/ui/toaster';
import { errorMessage } from '@/lib/api';
import { formatDateTime } from '@/lib/formats';
import { ruled } from '@/lib/forms';
import { queryKeys } from '@/lib/query-keys';
import { useDeliveries, useReloadIntegrations, useWebhooks, webhooksApi } from '../api/integrations-api';
import { INTEGRATIONS_TEXTS } from '../integrations-texts';
import { EventsField } from './EventsField';
import { SecretShownOnce, SectionUnavailable } from './SecretShownOnce';

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
    onError: (e) => toaster.create({ type: 'error', title: errorMessage(e, T.FAILED) }),
  });
  if (deliveries.isError) return <SectionUnavailable testId="deliveries-unavailable" />;
  if (!deliveries.data) return null;
  if (deliveries.data.length === 0) return <Text>{T.NO_DELIVERIES}</Text>;
  return (
    <Table.ScrollArea>
      <Table.Root size="sm" data-testid="webhook-deliveries" aria-label={`${T.DELIVERIES}: ${endpoint.url}`}>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>{C.EVENT}</Table.ColumnHeader>
            <Table.ColumnHeader>{C.STATUS}</Table.ColumnHeader>
            <Table.ColumnHeader>{C.ATTEMPTS}</Table.ColumnHeader>
            <Table.ColumnHeader>{C.CODE}</Table.ColumnHeader>
            <Table.ColumnHeader>{C.ERROR}</Table.ColumnHeader>
            <Table.ColumnHeader>{C.NEXT}</Table.ColumnHeader>
            <Table.ColumnHeader>
              <Box srOnly>{INTEGRATIONS_TEXTS.ACTIONS}</Box>
            </Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
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
                  <Button
                    size="xs"
                    variant="outline"
                    aria-label={`${T.RETRY} ${d.type} ${d.eventId}`}
                    loading={retry.isPending && retry.variables?.deliveryId === d.id}
                    onClick={() => retry.mutate({ webhookId: endpoint.id, deliveryId: d.id })}
                  >
                    {T.RETRY}
                  </Button>
                )}
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}

/** The organisation's webhook endpoints: add (the secret shown once), edit, rotate, test, remove, deliveries. */
export function WebhooksSection({ organisationId, enabled }: { organisationId?: number; enabled: boolean }) {
  const endpoints = useWebhooks(organisationId, enabled);
  const reload = useReloadIntegrations();
  const queryClient = useQueryClient();
  const [secret, setSecret] = useState<{ value: string; previousValidUntil?: string } | null>(null);
  const [editing, setEditing] = useState<WebhookEndpointItem | null>(null);
  const [rotating, setRotating] = useState<WebhookEndpointItem | null>(null);
  const [removing, setRemoving] = useState<WebhookEndpointItem | null>(null);
  const [open, setOpen] = useState<number | null>(null);
  const addForm = useForm<EndpointForm>({ resolver: zodResolver(endpointSchema), defaultValues: blank });
  const editForm = useForm<EndpointForm>({ resolver: zodResolver(endpointSchema), defaultValues: blank });
  const failed = (e: unknown) => toaster.create({ type: 'error', title: errorMessage(e, T.FAILED) });

  const create = useMutation({
    mutationFn: webhooksApi.create,
    onSuccess: (made) => {
      setSecret({ value: made.secret });
      addForm.reset(blank);
      void reload();
    },
    onError: failed,
  });
  const update = useMutation({
    mutationFn: webhooksApi.update,
    onSuccess: () => {
      toaster.create({ type: 'success', title: T.SAVED });
      setEditing(null);
      void reload();
    },
    onError: failed,
  });
  const rotate = useMutation({
    mutationFn: (e: WebhookEndpointItem) => webhooksApi.rotate(e.id),
    onSuccess: (r) => {
      setSecret({ value: r.secret, previousValidUntil: r.previousSecretValidUntil });
      setRotating(null);
    },
    onError: failed,
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
  const remove = useMutation({
    mutationFn: (e: WebhookEndpointItem) => webhooksApi.remove(e.id),
    onSuccess: () => {
      toaster.create({ type: 'success', title: T.REMOVED });
      setRemoving(null);
      void reload();
    },
    onError: failed,
  });

  const startEdit = (e: WebhookEndpointItem) => {
    editForm.reset({
      url: e.url,
      events: e.events as WebhookSubscription[],
      description: e.description ?? '',
      enabled: e.enabled,
    });
    setEditing(e);
  };
  const fields = ({ url, events, description }: EndpointForm) => ({
    url: url.trim(),
    events: (events.includes(WEBHOOK_ALL_EVENTS) ? [WEBHOOK_ALL_EVENTS] : events) as WebhookSubscription[],
    description: description.trim(),
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
          <form
            noValidate
            aria-label={T.ADD}
            onSubmit={addForm.handleSubmit((v) => create.mutate({ ...fields(v), organisationId }))}
          >
            <Stack gap="3" maxW="2xl">
              <EndpointFields form={addForm} editing={false} />
              <Box>
                <Button type="submit" colorPalette="blue" loading={create.isPending}>
                  {T.ADD}
                </Button>
              </Box>
            </Stack>
          </form>
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
                  <Button size="xs" variant="outline" aria-label={`${T.EDIT} ${e.url}`} onClick={() => startEdit(e)}>
                    {T.EDIT}
                  </Button>
                  <Button
                    size="xs"
                    variant="outline"
                    aria-label={`${T.ROTATE} ${e.url}`}
                    onClick={() => setRotating(e)}
                  >
                    {T.ROTATE}
                  </Button>
                  <Button
                    size="xs"
                    variant="outline"
                    aria-label={`${T.TEST} ${e.url}`}
                    loading={test.isPending && test.variables?.id === e.id}
                    onClick={() => test.mutate(e)}
                  >
                    {T.TEST}
                  </Button>
                  <Button
                    size="xs"
                    variant="outline"
                    aria-expanded={open === e.id}
                    aria-label={`${open === e.id ? T.HIDE_DELIVERIES : T.SHOW_DELIVERIES} ${e.url}`}
                    onClick={() => setOpen(open === e.id ? null : e.id)}
                  >
                    {open === e.id ? T.HIDE_DELIVERIES : T.SHOW_DELIVERIES}
                  </Button>
                  <Button
                    size="xs"
                    variant="outline"
                    colorPalette="red"
                    aria-label={`${INTEGRATIONS_TEXTS.REMOVE} ${e.url}`}
                    onClick={() => setRemoving(e)}
                  >
                    {INTEGRATIONS_TEXTS.REMOVE}
                  </Button>
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
      <AppDialog
        open={editing !== null}
        onClose={() => setEditing(null)}
        title={T.EDIT_TITLE}
        testId="edit-webhook-dialog"
        closeButton
        noValidate
        onSubmit={editForm.handleSubmit(
          (v) => editing && update.mutate({ id: editing.id, ...fields(v), enabled: v.enabled }),
        )}
        footer={
          <DialogActions
            onCancel={() => setEditing(null)}
            cancelLabel={INTEGRATIONS_TEXTS.CANCEL}
            confirmLabel={INTEGRATIONS_TEXTS.SAVE}
            submit
            loading={update.isPending}
          />
        }
      >
        <EndpointFields form={editForm} editing />
      </AppDialog>
      <ConfirmDialog
        open={rotating !== null}
        title={T.ROTATE_TITLE}
        message={rotating ? T.rotateQuestion(rotating.url) : ''}
        confirmLabel={T.ROTATE}
        cancelLabel={INTEGRATIONS_TEXTS.CANCEL}
        loading={rotate.isPending}
        onConfirm={() => rotating && rotate.mutate(rotating)}
        onClose={() => setRotating(null)}
      />
      <ConfirmDialog
        open={removing !== null}
        title={T.REMOVE_TITLE}
        message={removing ? T.removeQuestion(removing.url) : ''}
        confirmLabel={INTEGRATIONS_TEXTS.REMOVE}
        cancelLabel={INTEGRATIONS_TEXTS.CANCEL}
        loading={remove.isPending}
        onConfirm={() => removing && remove.mutate(removing)}
        onClose={() => setRemoving(null)}
      />
    </Stack>
  );
}
