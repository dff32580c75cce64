import { Alert, Badge, Box, Button, HStack, Stack, Table, Text } from '@chakra-ui/react';
import { Link, useNavigate } from 'react-router';
import { CAPABILITY_ROLES, hasAnyRole, Role } from '@shared/roles';
import type { SupportAccessItem } from '@shared/portal/support-access';
import { DataTable } from '@/components/ui/data-table';
import { PageHeader } from '@/components/ui/page-header';
import { toaster } from '@/components/ui/toaster';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api';
import { useAuth } from '@/lib/auth';
import { formatDateTime } from '@/lib/formats';
import { supportAccessApi, useSupportAccessChange, useSupportAccessList } from '../api/support-access-api';
import { SUPPORT_ACCESS_TEXTS as T } from '../support-access-texts';

const STATUS_PALETTE: Record<SupportAccessItem['status'], string> = {
  pending: 'orange',
  approved: 'blue',
  active: 'green',
  ended: 'gray',
  expired: 'gray',
  refused: 'red',
};

const personOf = (p: SupportAccessItem['user']) => {
  const name = [p.firstName, p.lastName].filter(Boolean).join(' ');
  return name ? `${name} (${p.email})` : p.email;
};

/**
 * Route users/support-access (and the organisation settings tab): support-access requests. Site admins approve or
 * refuse pending ones and end running ones; E-Support starts its approved requests (after confirming it is them)
 * and ends its own; administrators read. Linked from the notification and the e-mail a request sends.
 */
export function SupportAccessPage() {
  const { roles, user, enterSupportSession } = useAuth();
  const navigate = useNavigate();
  const support = roles.includes(Role.E_SUPPORT);
  const siteAdmin = roles.includes(Role.SITE_ADMIN);
  const auditor = hasAnyRole(roles, CAPABILITY_ROLES.AUDIT_LOG);
  const list = useSupportAccessList();
  const approve = useSupportAccessChange(supportAccessApi.approve);
  const refuse = useSupportAccessChange(supportAccessApi.refuse);
  const end = useSupportAccessChange(supportAccessApi.end);
  const start = useSupportAccessChange(supportAccessApi.start);
  const failed = (e: unknown) => toaster.create({ type: 'error', title: errorMessage(e, T.ACTION_FAILED) });
  const done = (title: string) => () => toaster.create({ type: 'success', title });

  const begin = (r: SupportAccessItem) =>
    start.mutate(r.id, {
      onSuccess: (started) => {
        enterSupportSession({
          id: r.id,
          accessToken: started.accessToken,
          endsAt: started.endsAt,
          member: r.user,
          reason: r.reason,
        });
        toaster.create({ type: 'info', title: T.STARTED });
        void navigate(paths.home);
      },
      onError: failed,
    });

  const actionsOf = (r: SupportAccessItem) => {
    const mine = support && r.supportUser.id === user?.id;
    const decides = siteAdmin && r.organisationId === user?.organisationId;
    return (
      <HStack gap="2">
        {decides && r.status === 'pending' && (
          <>
            <Button
              size="xs"
              colorPalette="blue"
              onClick={() => approve.mutate(r.id, { onSuccess: done(T.APPROVED), onError: failed })}
            >
              {T.APPROVE}
            </Button>
            <Button
              size="xs"
              variant="outline"
              onClick={() => refuse.mutate(r.id, { onSuccess: done(T.REFUSED), onError: failed })}
            >
              {T.REFUSE}
            </Button>
          </>
        )}
        {mine && r.status === 'approved' && (
          <Button size="xs" colorPalette="blue" loading={start.isPending} onClick={() => begin(r)}>
            {T.START}
          </Button>
        )}
        {auditor && (
          <Button size="xs" variant="ghost" asChild>
            <Link to={`${paths.auditLog}?supportAccessId=${r.id}`}>{T.AUDIT}</Link>
          </Button>
        )}
        {(mine || decides) && ['pending', 'approved', 'active'].includes(r.status) && (
          <Button
            size="xs"
            variant="outline"
            colorPalette="red"
            onClick={() => end.mutate(r.id, { onSuccess: done(T.ENDED), onError: failed })}
          >
            {T.END}
          </Button>
        )}
      </HStack>
    );
  };

  return (
    <Box data-testid="support-access-page">
      <PageHeader title={T.TITLE} />
      <Stack gap="4">
        <Text color="fg.muted">{T.INTRO}</Text>
        {list.isError && (
          <Alert.Root status="error">
            <Alert.Indicator />
            <Alert.Title>{errorMessage(list.error, T.LOAD_FAILED)}</Alert.Title>
          </Alert.Root>
        )}
        {list.data && list.data.length === 0 && <Text>{T.EMPTY}</Text>}
        {list.data && list.data.length > 0 && (
          <DataTable
            aria-label={T.TITLE}
            columns={[
              T.COLUMNS.member,
              T.COLUMNS.support,
              T.COLUMNS.reason,
              T.COLUMNS.status,
              T.COLUMNS.requested,
              T.COLUMNS.window,
              T.COLUMNS.actions,
            ]}
          >
            {list.data.map((r) => (
              <Table.Row key={r.id} data-testid={`support-access-${r.id}`}>
                <Table.Cell>
                  {personOf(r.user)}
                  {support && (
                    <Text fontSize="xs" color="fg.muted">
                      {r.organisationName}
                    </Text>
                  )}
                </Table.Cell>
                <Table.Cell>{r.supportUser.email}</Table.Cell>
                <Table.Cell maxW="xs">{r.reason}</Table.Cell>
                <Table.Cell>
                  <Badge colorPalette={STATUS_PALETTE[r.status]}>{T.STATUS[r.status]}</Badge>
                </Table.Cell>
                <Table.Cell>{formatDateTime(r.requestedAt)}</Table.Cell>
                <Table.Cell>{formatDateTime(r.endsAt ?? r.expiresAt)}</Table.Cell>
                <Table.Cell>{actionsOf(r)}</Table.Cell>
              </Table.Row>
            ))}
          </DataTable>
        )}
      </Stack>
    </Box>
  );
}
