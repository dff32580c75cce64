import { useState } from 'react';
import { Alert, Badge, Box, Button, Checkbox, Flex, Heading, Spinner, Stack, Table, Text } from '@chakra-ui/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ORG_ADMIN_MESSAGES as M } from '@shared/administration/organisation-admin';
import { toaster } from '@/components/ui/toaster';
import { errorMessage } from '@/lib/api';
import { sessionsApi, useUserSessions } from '../api/sessions-api';
import { concurrencyBanner, severity } from '../sessions-view';
import { formatDateTime } from '@/lib/formats';
import { queryKeys } from '@/lib/query-keys';

const SEVERITY_PALETTE = { success: 'green', warning: 'orange' } as const;

/** Spec 001 §2.14 (users/user-sessions): live sessions of the organisation and force log-off. */
export function UserSessionsPage() {
  const query = useUserSessions();
  const queryClient = useQueryClient();
  const [selected, setSelected] = useState<Set<number>>(new Set());

  const logoff = useMutation({
    mutationFn: sessionsApi.forceLogoff,
    onSuccess: (_r, ids) => {
      toaster.create({ type: 'success', title: M.FORCE_LOGOFF_DONE });
      setSelected((s) => new Set([...s].filter((id) => !ids.includes(id))));
      void queryClient.invalidateQueries({ queryKey: queryKeys.sessions });
    },
    onError: (error) =>
      toaster.create({
        type: 'error',
        title: M.FORCE_LOGOFF_FAILED,
        description: errorMessage(error, '') || undefined,
      }),
  });

  if (query.isLoading) return <Spinner />;
  if (query.isError || !query.data)
    return (
      <Alert.Root status="error">
        <Alert.Indicator />
        <Alert.Title>{errorMessage(query.error, 'The user sessions could not be loaded.')}</Alert.Title>
      </Alert.Root>
    );

  const { userSessions: rows, maxConcurrentUsers } = query.data;
  const banner = concurrencyBanner(rows, maxConcurrentUsers);
  // Only the users the caller may act on (an administrator never forces the site admin off).
  const actionable = rows.filter((r) => r.canForceLogoff);
  const allSelected = actionable.length > 0 && actionable.every((r) => selected.has(r.id));
  const toggle = (id: number, on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  return (
    <Stack gap="4" data-testid="user-sessions-page">
      <Flex justify="space-between" align="center" gap="3" wrap="wrap">
        <Heading as="h1" size="xl">
          Max allowed concurrent users: {maxConcurrentUsers}
        </Heading>
        <Button
          colorPalette="red"
          disabled={selected.size === 0}
          loading={logoff.isPending}
          onClick={() => logoff.mutate([...selected])}
        >
          Force logoff
        </Button>
      </Flex>
      {banner && (
        <Alert.Root status={banner.status} data-status={banner.status} data-testid="concurrency-banner">
          <Alert.Indicator />
          <Alert.Title>{banner.text}</Alert.Title>
        </Alert.Root>
      )}
      <Box overflowX="auto">
        <Table.Root size="sm" striped>
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader w="10">
                <Checkbox.Root
                  aria-label="Select all users"
                  checked={allSelected ? true : selected.size > 0 ? 'indeterminate' : false}
                  onCheckedChange={(d) =>
                    setSelected(d.checked === true ? new Set(actionable.map((r) => r.id)) : new Set())
                  }
                  disabled={actionable.length === 0}
                >
                  <Checkbox.HiddenInput />
                  <Checkbox.Control />
                </Checkbox.Root>
              </Table.ColumnHeader>
              <Table.ColumnHeader>Email</Table.ColumnHeader>
              <Table.ColumnHeader>Roles</Table.ColumnHeader>
              <Table.ColumnHeader>Status</Table.ColumnHeader>
              <Table.ColumnHeader>Online Sessions</Table.ColumnHeader>
              <Table.ColumnHeader>Last Login</Table.ColumnHeader>
              <Table.ColumnHeader>Last Refresh</Table.ColumnHeader>
              <Table.ColumnHeader />
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {rows.length === 0 ? (
              <Table.Row>
                <Table.Cell colSpan={8}>
                  <Text textAlign="center" py="4" color="fg.muted">
                    {M.NO_USERS}
                  </Text>
                </Table.Cell>
              </Table.Row>
            ) : (
              rows.map((row) => {
                const level = severity(row.status);
                return (
                  <Table.Row key={row.id} data-testid="session-row" data-email={row.email}>
                    <Table.Cell>
                      <Checkbox.Root
                        data-testid="select-row"
                        aria-label={`Select ${row.email}`}
                        disabled={!row.canForceLogoff}
                        checked={selected.has(row.id)}
                        onCheckedChange={(d) => toggle(row.id, d.checked === true)}
                      >
                        <Checkbox.HiddenInput />
                        <Checkbox.Control />
                      </Checkbox.Root>
                    </Table.Cell>
                    <Table.Cell>{row.email}</Table.Cell>
                    <Table.Cell>{row.roles.join(', ')}</Table.Cell>
                    <Table.Cell>
                      <Badge colorPalette={SEVERITY_PALETTE[level]} data-severity={level} data-testid="session-status">
                        {row.status}
                      </Badge>
                      {row.supportSession && (
                        <Text fontSize="xs" mt="1" data-testid="support-session">
                          {M.SUPPORT_SESSION(
                            row.supportSession.supportUserEmail,
                            formatDateTime(row.supportSession.endsAt),
                          )}
                        </Text>
                      )}
                    </Table.Cell>
                    <Table.Cell>{row.onlineSessions}</Table.Cell>
                    <Table.Cell>{formatDateTime(row.lastLoginTime)}</Table.Cell>
                    <Table.Cell>{formatDateTime(row.lastRefreshTime)}</Table.Cell>
                    <Table.Cell>
                      <Button
                        size="xs"
                        variant="outline"
                        colorPalette="red"
                        disabled={logoff.isPending || !row.canForceLogoff}
                        onClick={() => logoff.mutate([row.id])}
                      >
                        Force LogOff User
                      </Button>
                    </Table.Cell>
                  </Table.Row>
                );
              })
            )}
          </Table.Body>
        </Table.Root>
      </Box>
    </Stack>
  );
}
