import { useState } from 'react';
import { Box, Button, Heading, HStack, Table, Text } from '@chakra-ui/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { DataTable } from '@/components/ui/data-table';
import { RowButton } from '@/components/ui/row-button';
import { toaster } from '@/components/ui/toaster';
import { errorMessage } from '@/lib/api';
import { formatDateTime } from '@/lib/formats';
import { DEVICES_QUERY_KEY, recoveryApi } from '../api/recovery-api';
import { RECOVERY_TEXTS } from '../recovery-texts';

const when = (iso: string | null) => (iso ? formatDateTime(iso) : '—');

/** In the profile's MFA panel: the browsers that skip the MFA step, each revocable, or all at once. */
export function TrustedDevicesSection() {
  const queryClient = useQueryClient();
  const devices = useQuery({ queryKey: DEVICES_QUERY_KEY, queryFn: recoveryApi.devices });
  const [confirmAll, setConfirmAll] = useState(false);
  const done = (title: string) => {
    toaster.create({ type: 'success', title });
    void queryClient.invalidateQueries({ queryKey: DEVICES_QUERY_KEY });
  };
  const failed = (error: unknown) =>
    toaster.create({ type: 'error', title: errorMessage(error, 'Something went wrong') });
  const revoke = useMutation({
    mutationFn: recoveryApi.revoke,
    onSuccess: () => done(RECOVERY_TEXTS.REVOKED),
    onError: failed,
  });
  const revokeAll = useMutation({
    mutationFn: recoveryApi.revokeAll,
    onSuccess: () => (setConfirmAll(false), done(RECOVERY_TEXTS.ALL_REVOKED)),
    onError: (e) => (setConfirmAll(false), failed(e)),
  });
  const rows = devices.data ?? [];
  return (
    <Box mt="5" data-testid="trusted-devices">
      <HStack justify="space-between" mb="2">
        <Heading as="h3" size="sm">
          {RECOVERY_TEXTS.TRUSTED_DEVICES}
        </Heading>
        {rows.length > 0 && (
          <Button size="xs" variant="outline" colorPalette="red" onClick={() => setConfirmAll(true)}>
            {RECOVERY_TEXTS.REVOKE_ALL}
          </Button>
        )}
      </HStack>
      {rows.length === 0 ? (
        <Text fontSize="sm" color="fg.muted" data-testid="no-trusted-devices">
          {devices.isPending ? 'Loading...' : RECOVERY_TEXTS.NO_DEVICES}
        </Text>
      ) : (
        <Box overflowX="auto">
          <DataTable scroll={false} columns={['Device', 'Created', 'Last Used', null]}>
            {rows.map((d) => (
              <Table.Row key={d.id} data-testid="trusted-device-row">
                <Table.Cell>{d.label}</Table.Cell>
                <Table.Cell whiteSpace="nowrap">{when(d.createdAt)}</Table.Cell>
                <Table.Cell whiteSpace="nowrap">{when(d.lastUsedAt)}</Table.Cell>
                <Table.Cell textAlign="end">
                  <RowButton
                    label={RECOVERY_TEXTS.REVOKE}
                    of={d.label}
                    loading={revoke.isPending && revoke.variables === d.id}
                    onClick={() => revoke.mutate(d.id)}
                  />
                </Table.Cell>
              </Table.Row>
            ))}
          </DataTable>
        </Box>
      )}
      <ConfirmDialog
        open={confirmAll}
        message={RECOVERY_TEXTS.CONFIRM_REVOKE_ALL}
        loading={revokeAll.isPending}
        onConfirm={() => revokeAll.mutate()}
        onClose={() => setConfirmAll(false)}
      />
    </Box>
  );
}
