import { useState } from 'react';
import { Alert, Button, Card, Field, Heading, HStack, Input, Stack, Table, Text } from '@chakra-ui/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PASSKEY_LIMITS, PasskeyItem } from '@shared/identity/passkeys';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { DataTable } from '@/components/ui/data-table';
import { RowButton } from '@/components/ui/row-button';
import { toaster } from '@/components/ui/toaster';
import { formatDateTime } from '@/lib/formats';
import { queryKeys } from '@/lib/query-keys';
import { browserCeremonyError, PASSKEY_TEXTS, passkeysApi } from '../api/passkeys-api';

/**
 * Passkeys, on the profile beside the MFA panel: the caller's passkeys with their created and
 * last-used dates, 'Add a passkey' with a name, and Remove. Adding or removing one signs the user out of their
 * other sessions (this one stays).
 */
export function PasskeysPanel() {
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: queryKeys.passkeys, queryFn: passkeysApi.list });
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [removing, setRemoving] = useState<PasskeyItem | null>(null);
  const changed = (message: string) => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.passkeys });
    void queryClient.invalidateQueries({ queryKey: queryKeys.currentUser });
    toaster.create({ type: 'success', title: message });
  };
  const add = useMutation({
    mutationFn: () => passkeysApi.add(name.trim()),
    onSuccess: () => (setName(''), setError(null), changed(PASSKEY_TEXTS.ADDED)),
    onError: (e) => setError(browserCeremonyError(e) ?? `Sorry, an error occurred. ${(e as Error).message}`),
  });
  const remove = useMutation({
    mutationFn: (id: number) => passkeysApi.remove(id),
    onSuccess: () => changed(PASSKEY_TEXTS.REMOVED),
    onError: (e) => setError(`Sorry, an error occurred. ${(e as Error).message}`),
  });
  const nameError =
    name.trim().length > PASSKEY_LIMITS.NAME_MAX
      ? `Passkey name must be 1 to ${PASSKEY_LIMITS.NAME_MAX} characters.`
      : null;

  return (
    <Card.Root data-testid="passkeys-panel">
      <Card.Header>
        <Heading size="md">{PASSKEY_TEXTS.PANEL_TITLE}</Heading>
      </Card.Header>
      <Card.Body>
        <Stack gap="4">
          <Text fontSize="sm" color="fg.muted">
            {PASSKEY_TEXTS.PANEL_HELP}
          </Text>
          {list.data && list.data.length === 0 && <Text data-testid="passkeys-none">{PASSKEY_TEXTS.NONE}</Text>}
          {list.data && list.data.length > 0 && (
            <DataTable data-testid="passkeys-table" scroll={false} columns={['Name', 'Created', 'Last used', null]}>
              {list.data.map((p) => (
                <Table.Row key={p.id} data-testid="passkey-row">
                  <Table.Cell>{p.name}</Table.Cell>
                  <Table.Cell whiteSpace="nowrap">{formatDateTime(p.createdAt)}</Table.Cell>
                  <Table.Cell whiteSpace="nowrap">{p.lastUsedAt ? formatDateTime(p.lastUsedAt) : 'Never'}</Table.Cell>
                  <Table.Cell textAlign="end">
                    <RowButton
                      label="Remove"
                      of={`passkey ${p.name}`}
                      colorPalette="red"
                      onClick={() => setRemoving(p)}
                    />
                  </Table.Cell>
                </Table.Row>
              ))}
            </DataTable>
          )}
          <form
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              if (name.trim() && !nameError) add.mutate();
            }}
          >
            <HStack align="end">
              <Field.Root invalid={!!nameError}>
                <Field.Label>{PASSKEY_TEXTS.NAME}</Field.Label>
                <Input
                  name="passkeyName"
                  placeholder="e.g. Work laptop"
                  maxLength={PASSKEY_LIMITS.NAME_MAX + 10}
                  value={name}
                  onChange={(e) => setName(e.target.value)}
                />
                {nameError && <Field.ErrorText>{nameError}</Field.ErrorText>}
              </Field.Root>
              <Button type="submit" colorPalette="blue" loading={add.isPending} disabled={!name.trim() || !!nameError}>
                {PASSKEY_TEXTS.ADD}
              </Button>
            </HStack>
          </form>
          {error && (
            <Alert.Root status="error" size="sm" data-testid="passkeys-error">
              <Alert.Indicator />
              <Alert.Title>{error}</Alert.Title>
            </Alert.Root>
          )}
        </Stack>
      </Card.Body>
      <ConfirmDialog
        open={!!removing}
        message={removing ? PASSKEY_TEXTS.CONFIRM_REMOVE(removing.name) : ''}
        onConfirm={() => {
          if (removing) remove.mutate(removing.id);
          setRemoving(null);
        }}
        onClose={() => setRemoving(null)}
      />
    </Card.Root>
  );
}
