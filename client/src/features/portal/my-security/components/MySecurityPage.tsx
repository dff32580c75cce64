import { Alert, Badge, Button, Heading, HStack, Link, Spinner, Stack, Table, Text } from '@chakra-ui/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router';
import { deviceLabel } from '@shared/identity/device-label';
import { SESSION_METHOD_LABELS } from '@shared/administration/insights';
import { DataTable } from '@/components/ui/data-table';
import { toaster } from '@/components/ui/toaster';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api';
import { useAuth } from '@/lib/auth';
import { formatAddress, formatDateTime } from '@/lib/formats';
import { queryKeys } from '@/lib/query-keys';
import { mySecurityApi, useMySessions, useMySignIns } from '../api/my-security-api';
import { MyData } from './MyData';
import { MyApplications } from './MyApplications';

const METHOD_LABELS: Record<string, string> = SESSION_METHOD_LABELS;

function LoadError({ error, what }: { error: unknown; what: string }) {
  return (
    <Alert.Root status="error">
      <Alert.Indicator />
      <Alert.Title>{errorMessage(error, `${what} could not be loaded.`)}</Alert.Title>
    </Alert.Root>
  );
}

/** My sessions: browser, address, when started and last used, this one marked; sign out one, or all others. */
function MySessions() {
  const query = useMySessions();
  const queryClient = useQueryClient();
  const done = (title: string) => {
    toaster.create({ type: 'success', title });
    void queryClient.invalidateQueries({ queryKey: queryKeys.mySecurity.sessions });
  };
  const failed = (error: unknown) =>
    toaster.create({ type: 'error', title: errorMessage(error, 'The session could not be ended.') });
  const endOne = useMutation({
    mutationFn: mySecurityApi.endSession,
    onSuccess: () => done('Signed out of that session.'),
    onError: failed,
  });
  const endOthers = useMutation({
    mutationFn: mySecurityApi.endOthers,
    onSuccess: (r) => done(`Signed out everywhere else (${r.ended} session${r.ended === 1 ? '' : 's'}).`),
    onError: failed,
  });
  if (query.isLoading) return <Spinner />;
  if (query.isError || !query.data) return <LoadError error={query.error} what="Your sessions" />;
  const others = query.data.filter((s) => !s.current).length;
  return (
    <Stack gap="3" as="section" aria-labelledby="my-sessions">
      <HStack justify="space-between" wrap="wrap">
        <Heading as="h2" size="lg" id="my-sessions">
          Where you are signed in
        </Heading>
        <Button
          size="sm"
          colorPalette="red"
          variant="outline"
          disabled={others === 0}
          loading={endOthers.isPending}
          onClick={() => endOthers.mutate()}
          data-testid="end-other-sessions"
        >
          Sign out everywhere else
        </Button>
      </HStack>
      <Table.Root size="sm" data-testid="my-sessions">
        <Table.Header>
          <Table.Row>
            {['Browser', 'Address', 'Signed in', 'Last used', 'How', ''].map((h, i) => (
              <Table.ColumnHeader key={h || i} scope="col">
                {h || <Text srOnly>Action</Text>}
              </Table.ColumnHeader>
            ))}
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {query.data.map((s) => (
            <Table.Row key={s.id} data-testid="my-session">
              <Table.Cell>
                {deviceLabel(s.userAgent)}{' '}
                {s.current && (
                  <Badge colorPalette="green" ms="1">
                    This browser
                  </Badge>
                )}
              </Table.Cell>
              <Table.Cell>{formatAddress(s.ip, 'Unknown')}</Table.Cell>
              <Table.Cell>{formatDateTime(s.createdAt)}</Table.Cell>
              <Table.Cell>{formatDateTime(s.lastUsedAt)}</Table.Cell>
              <Table.Cell>{METHOD_LABELS[s.method] ?? s.method}</Table.Cell>
              <Table.Cell textAlign="end">
                {!s.current && (
                  <Button
                    size="xs"
                    variant="outline"
                    loading={endOne.isPending && endOne.variables === s.id}
                    onClick={() => endOne.mutate(s.id)}
                    aria-label={`Sign out of ${deviceLabel(s.userAgent)} at ${formatAddress(s.ip, 'an unknown address')}, signed in ${formatDateTime(s.createdAt)}`}
                  >
                    Sign out
                  </Button>
                )}
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Stack>
  );
}

/** My last 50 sign-ins and failed attempts. */
function MySignIns() {
  const query = useMySignIns();
  if (query.isLoading) return <Spinner />;
  if (query.isError || !query.data) return <LoadError error={query.error} what="Your sign-ins" />;
  return (
    <Stack gap="3" as="section" aria-labelledby="my-sign-ins">
      <Heading as="h2" size="lg" id="my-sign-ins">
        Your recent sign-ins
      </Heading>
      {query.data.length === 0 ? (
        <Text>No sign-ins recorded yet.</Text>
      ) : (
        <DataTable
          data-testid="my-sign-ins"
          header={{ scope: 'col' }}
          scroll={{ maxH: 'md', tabIndex: 0, 'aria-label': 'Your recent sign-ins', borderWidth: '1px', rounded: 'sm' }}
          columns={['When', 'Outcome', 'How', 'Address', 'Browser']}
        >
          {query.data.map((s, i) => (
            <Table.Row key={`${s.at}-${i}`}>
              <Table.Cell>{formatDateTime(s.at)}</Table.Cell>
              <Table.Cell>
                <Badge colorPalette={s.outcome === 'succeeded' ? 'green' : 'red'}>
                  {s.outcome === 'succeeded' ? 'Signed in' : 'Failed'}
                </Badge>
              </Table.Cell>
              <Table.Cell>{s.method ? METHOD_LABELS[s.method] : '—'}</Table.Cell>
              <Table.Cell>{formatAddress(s.ip, 'Unknown')}</Table.Cell>
              <Table.Cell>
                {deviceLabel(s.userAgent)}
                {s.newDevice && (
                  <Badge colorPalette="orange" ms="2">
                    New browser
                  </Badge>
                )}
              </Table.Cell>
            </Table.Row>
          ))}
        </DataTable>
      )}
    </Stack>
  );
}

/**
 * Every member's own security page (docs/product-rules.md §10): sessions, recent sign-ins, the applications with
 * access, and where the second factors live.
 */
export function MySecurityPage() {
  const { user } = useAuth();
  return (
    <Stack gap="6" data-testid="my-security-page">
      <Heading as="h1" size="xl">
        My security
      </Heading>
      <MySessions />
      <MySignIns />
      <MyApplications />
      <Stack gap="2" as="section" aria-labelledby="my-factors">
        <Heading as="h2" size="lg" id="my-factors">
          Second factors
        </Heading>
        <Text>
          {user?.isMFAEnabled || user?.hasPasskey
            ? 'Your account has a second factor.'
            : 'Your account has no second factor yet.'}{' '}
          Your authenticator app, passkeys, recovery codes and trusted browsers are on{' '}
          {user ? (
            <Link asChild variant="underline" colorPalette="blue">
              <RouterLink to={paths.userProfile(user.id)}>your profile</RouterLink>
            </Link>
          ) : (
            'your profile'
          )}
          .
        </Text>
      </Stack>
      <MyData />
    </Stack>
  );
}
