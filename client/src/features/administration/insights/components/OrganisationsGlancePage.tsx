import { useState } from 'react';
import { Alert, Badge, Box, Button, Heading, Link, Spinner, Stack, Table, Text } from '@chakra-ui/react';
import { Chart, useChart } from '@chakra-ui/charts';
import { Line, LineChart } from 'recharts';
import { Link as RouterLink } from 'react-router';
import { GLANCE_TREND_DAYS, type OrganisationGlance } from '@shared/administration/insights';
import { DataTable } from '@/components/ui/data-table';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api';
import { formatDateTime } from '@/lib/formats';
import { useOrganisationsGlance } from '../api/insights-api';
import { percent } from '../insights-view';

type SortKey = 'name' | 'seats' | 'mfa' | 'sso' | 'lastSignIn' | 'trend';

const COLUMNS: Array<{ key: SortKey; label: string }> = [
  { key: 'name', label: 'Organisation' },
  { key: 'seats', label: 'Seats used' },
  { key: 'mfa', label: 'MFA adoption' },
  { key: 'sso', label: 'SSO' },
  { key: 'lastSignIn', label: 'Last sign-in' },
  { key: 'trend', label: `Sign-ins, last ${GLANCE_TREND_DAYS} days` },
];

const total = (o: OrganisationGlance) => o.signInTrend.reduce((n, x) => n + x, 0);

/** The value a column sorts by. */
export function sortValue(o: OrganisationGlance, key: SortKey): string | number {
  switch (key) {
    case 'name':
      return o.name.toLowerCase();
    case 'seats':
      return o.allowedUsers > 0 ? o.activeUsers / o.allowedUsers : 0;
    case 'mfa':
      return o.mfaAdoption.total > 0 ? o.mfaAdoption.enrolled / o.mfaAdoption.total : 0;
    case 'sso':
      return o.ssoEnabled ? 1 : 0;
    case 'lastSignIn':
      return o.lastSignInAt ? Date.parse(o.lastSignInAt) : 0;
    case 'trend':
      return total(o);
  }
}

export function sortGlance(rows: OrganisationGlance[], key: SortKey, descending: boolean): OrganisationGlance[] {
  const sign = descending ? -1 : 1;
  return [...rows].sort((a, b) => {
    const x = sortValue(a, key);
    const y = sortValue(b, key);
    // Ties keep the organisations' order, whichever the direction.
    return x < y ? -sign : x > y ? sign : a.organisationId - b.organisationId;
  });
}

function Sparkline({ values }: { values: number[] }) {
  const chart = useChart({ data: values.map((n, i) => ({ i, n })), series: [{ name: 'n', color: 'teal.solid' }] });
  return (
    <Box aria-hidden="true" w="28" h="8" data-testid="glance-sparkline">
      <Chart.Root chart={chart} h="8">
        <LineChart data={chart.data} accessibilityLayer={false} responsive>
          <Line
            isAnimationActive={false}
            dataKey={chart.key('n')}
            stroke={chart.color('teal.solid')}
            dot={false}
            strokeWidth={2}
          />
        </LineChart>
      </Chart.Root>
    </Box>
  );
}

/** E-Support: every customer organisation at a glance, sortable by any column, with a small trend per row. */
export function OrganisationsGlancePage() {
  const query = useOrganisationsGlance();
  const [sort, setSort] = useState<{ key: SortKey; descending: boolean }>({ key: 'name', descending: false });
  if (query.isLoading) return <Spinner />;
  if (query.isError || !query.data)
    return (
      <Alert.Root status="error">
        <Alert.Indicator />
        <Alert.Title>{errorMessage(query.error, 'The organisations could not be loaded.')}</Alert.Title>
      </Alert.Root>
    );
  const rows = sortGlance(query.data, sort.key, sort.descending);
  const sortBy = (key: SortKey) =>
    setSort((s) => ({ key, descending: s.key === key ? !s.descending : key !== 'name' }));
  return (
    <Stack gap="4" data-testid="glance-page">
      <Heading as="h1" size="xl">
        Every organisation at a glance
      </Heading>
      <Text color="fg.muted" fontSize="sm">
        Select a column's name to sort by it; select an organisation for its insights.
      </Text>
      <DataTable
        data-testid="glance-table"
        scroll={{ borderWidth: '1px', rounded: 'md', tabIndex: 0, 'aria-label': 'Organisations' }}
        head={COLUMNS.map((c) => (
          <Table.ColumnHeader
            key={c.key}
            scope="col"
            aria-sort={sort.key === c.key ? (sort.descending ? 'descending' : 'ascending') : undefined}
          >
            <Button variant="plain" size="sm" px="0" onClick={() => sortBy(c.key)}>
              {c.label}
              {sort.key === c.key ? (sort.descending ? ' ↓' : ' ↑') : ''}
            </Button>
          </Table.ColumnHeader>
        ))}
      >
        {rows.map((o) => (
          <Table.Row key={o.organisationId} data-testid="glance-row">
            <Table.Cell>
              <Link asChild colorPalette="blue" variant="underline">
                <RouterLink to={`${paths.insights}?organisationId=${o.organisationId}`}>{o.name}</RouterLink>
              </Link>
            </Table.Cell>
            <Table.Cell>
              {o.activeUsers} of {o.allowedUsers}
            </Table.Cell>
            <Table.Cell>
              {percent(o.mfaAdoption.enrolled, o.mfaAdoption.total)} ({o.mfaAdoption.enrolled} of {o.mfaAdoption.total})
            </Table.Cell>
            <Table.Cell>
              <Badge colorPalette={o.ssoEnabled ? 'green' : 'gray'}>{o.ssoEnabled ? 'On' : 'Off'}</Badge>
            </Table.Cell>
            <Table.Cell>{o.lastSignInAt ? formatDateTime(o.lastSignInAt) : 'Never'}</Table.Cell>
            <Table.Cell>
              <Stack direction="row" align="center" gap="2">
                <Sparkline values={o.signInTrend} />
                <Text>{total(o)}</Text>
              </Stack>
            </Table.Cell>
          </Table.Row>
        ))}
      </DataTable>
    </Stack>
  );
}
