import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Alert, Box, Button, Field, Heading, HStack, Input, NativeSelect, Stack, Table, Text } from '@chakra-ui/react';
import { useMutation } from '@tanstack/react-query';
import {
  INTEGRATION_MESSAGES,
  LOG_STREAM_TOKEN_PATTERN,
  LOG_STREAM_TYPES,
  type LogStreamItem,
  type LogStreamTestResult,
} from '@shared/administration/integrations';
import { SectionUnavailable } from '@/components/SectionUnavailable';
import { useConfirmedAction } from '@/components/ui/confirm-action';
import { DataTable } from '@/components/ui/data-table';
import { RowButton } from '@/components/ui/row-button';
import { toaster, toastFailure } from '@/components/ui/toaster';
import { formatDateTime } from '@/lib/formats';
import { ruled } from '@/lib/forms';
import { logStreamsApi, useLogStreams, useReloadIntegrations } from '../api/integrations-api';
import { INTEGRATIONS_TEXTS } from '../integrations-texts';

const T = INTEGRATIONS_TEXTS.LOG_STREAMS;
const C = T.COLUMNS;

const streamSchema = z.object({
  type: z.enum(LOG_STREAM_TYPES),
  url: ruled((v) => (/^https?:\/\/\S+$/i.test(v.trim()) ? null : INTEGRATIONS_TEXTS.WEBHOOKS.URL_INVALID)),
  token: ruled((v) =>
    !v.trim()
      ? T.TOKEN_REQUIRED
      : LOG_STREAM_TOKEN_PATTERN.test(v.trim())
        ? null
        : INTEGRATION_MESSAGES.STREAM_TOKEN_CHARACTERS,
  ),
});
type StreamForm = z.infer<typeof streamSchema>;
const blank: StreamForm = { type: 'splunk-hec', url: '', token: '' };

/**
 * The audit log streams: add (type, URL, token; the token never shown again), list with the last delivery and the
 * last error, test, remove. E-Support without an organisation works on the deployment-wide streams.
 */
export function LogStreamsSection({
  organisationId,
  enabled,
  deploymentWide,
}: {
  organisationId?: number;
  enabled: boolean;
  deploymentWide: boolean;
}) {
  const streams = useLogStreams(organisationId, enabled);
  const reload = useReloadIntegrations();
  const [tested, setTested] = useState<{ url: string; result: LogStreamTestResult } | null>(null);
  const form = useForm<StreamForm>({ resolver: zodResolver(streamSchema), defaultValues: blank });
  const errors = form.formState.errors;
  const failed = toastFailure(T.FAILED);

  const create = useMutation({
    mutationFn: logStreamsApi.create,
    onSuccess: () => {
      form.reset(blank);
      void reload();
    },
    onError: failed,
  });
  const test = useMutation({
    mutationFn: (s: LogStreamItem) => logStreamsApi.test(s.id),
    onMutate: () => setTested(null),
    onSuccess: (result, s) => {
      setTested({ url: s.url, result });
      void reload();
    },
    onError: failed,
  });
  const remove = useConfirmedAction({
    mutationFn: (s: LogStreamItem) => logStreamsApi.remove(s.id),
    onSuccess: (_done, s) => {
      if (tested?.url === s.url) setTested(null);
      toaster.create({ type: 'success', title: T.REMOVED });
      void reload();
    },
    onError: failed,
    question: {
      title: T.REMOVE_TITLE,
      message: (s) => T.removeQuestion(s.url),
      confirmLabel: INTEGRATIONS_TEXTS.REMOVE,
    },
  });

  return (
    <Stack gap="4" as="section" aria-labelledby="log-streams-title" data-testid="log-streams-section">
      <Heading as="h2" size="lg" id="log-streams-title">
        {T.TITLE}
      </Heading>
      <Text color="fg.muted">{T.INTRO}</Text>
      {deploymentWide && <Text fontWeight="semibold">{T.DEPLOYMENT_WIDE}</Text>}
      {streams.isError ? (
        <SectionUnavailable testId="log-streams-unavailable" />
      ) : (
        <>
          <form
            noValidate
            aria-label={T.ADD}
            onSubmit={form.handleSubmit((v) =>
              create.mutate({ type: v.type, url: v.url.trim(), token: v.token.trim(), organisationId }),
            )}
          >
            <HStack align="start" gap="3" wrap="wrap">
              <Field.Root maxW="3xs">
                <Field.Label>{T.TYPE}</Field.Label>
                <NativeSelect.Root>
                  <NativeSelect.Field {...form.register('type')}>
                    {LOG_STREAM_TYPES.map((t) => (
                      <option key={t} value={t}>
                        {T.TYPES[t]}
                      </option>
                    ))}
                  </NativeSelect.Field>
                  <NativeSelect.Indicator />
                </NativeSelect.Root>
              </Field.Root>
              <Field.Root invalid={!!errors.url} required maxW="sm">
                <Field.Label>
                  {T.URL}
                  <Field.RequiredIndicator />
                </Field.Label>
                <Input type="url" autoComplete="off" {...form.register('url')} />
                <Field.ErrorText>{errors.url?.message}</Field.ErrorText>
              </Field.Root>
              <Field.Root invalid={!!errors.token} required maxW="3xs">
                <Field.Label>
                  {T.TOKEN}
                  <Field.RequiredIndicator />
                </Field.Label>
                <Input type="password" autoComplete="off" {...form.register('token')} />
                <Field.ErrorText>{errors.token?.message}</Field.ErrorText>
              </Field.Root>
              <Box pt="6">
                <Button type="submit" colorPalette="blue" loading={create.isPending}>
                  {T.ADD}
                </Button>
              </Box>
            </HStack>
          </form>
          {tested && (
            <Alert.Root
              status={tested.result.success ? 'success' : 'error'}
              role="status"
              data-testid="log-stream-test-result"
            >
              <Alert.Indicator />
              <Alert.Title>
                {tested.result.success
                  ? T.testAccepted(tested.url, tested.result.statusCode)
                  : T.testRefused(tested.url, tested.result.statusCode, tested.result.error)}
              </Alert.Title>
            </Alert.Root>
          )}
          {streams.data && streams.data.length === 0 && <Text>{T.NONE}</Text>}
          {streams.data && streams.data.length > 0 && (
            <DataTable
              data-testid="log-streams"
              columns={[C.TYPE, C.URL, C.LAST_DELIVERED, C.LAST_ERROR]}
              actions={INTEGRATIONS_TEXTS.ACTIONS}
            >
              {streams.data.map((s) => (
                <Table.Row key={s.id} data-testid="log-stream-row">
                  <Table.Cell>{T.TYPES[s.type]}</Table.Cell>
                  <Table.Cell fontFamily="mono" wordBreak="break-all">
                    {s.url}
                  </Table.Cell>
                  <Table.Cell>
                    {s.lastDeliveredAt ? formatDateTime(s.lastDeliveredAt) : INTEGRATIONS_TEXTS.NEVER}
                  </Table.Cell>
                  <Table.Cell maxW="xs" wordBreak="break-word">
                    {s.lastError ?? INTEGRATIONS_TEXTS.NONE_YET}
                  </Table.Cell>
                  <Table.Cell textAlign="end">
                    <HStack gap="2" justify="end">
                      <RowButton
                        label={T.TEST}
                        of={s.url}
                        loading={test.isPending && test.variables?.id === s.id}
                        onClick={() => test.mutate(s)}
                      />
                      <RowButton
                        label={INTEGRATIONS_TEXTS.REMOVE}
                        of={s.url}
                        colorPalette="red"
                        onClick={() => remove.ask(s)}
                      />
                    </HStack>
                  </Table.Cell>
                </Table.Row>
              ))}
            </DataTable>
          )}
        </>
      )}
      {remove.dialog}
    </Stack>
  );
}
