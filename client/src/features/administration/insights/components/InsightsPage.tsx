import { Alert, Heading, HStack, SimpleGrid, Spinner, Stack, Text } from '@chakra-ui/react';
import { useSearchParams } from 'react-router';
import { INSIGHTS_PERIODS } from '@shared/administration/insights';
import { errorMessage } from '@/lib/api';
import { useInsights } from '../api/insights-api';
import { chartRows, headline } from '../insights-view';
import { ChartFigure } from './ChartFigure';
import { HeadlineFigures } from './HeadlineFigures';
import { PeriodPicker } from './PeriodPicker';

/**
 * An organisation's insights (docs/product-rules.md §10) for the last 7, 30, 90 or 365 days: sign-ins per day, by method, why
 * they failed, MFA adoption and its trend, seats and concurrent users against their limits. Each chart has its
 * figures as a table. E-Support reads any organisation (?organisationId=).
 */
export function InsightsPage() {
  const [params, setParams] = useSearchParams();
  const days = Number(params.get('days')) || 30;
  const orgParam = Number(params.get('organisationId'));
  const organisationId = Number.isInteger(orgParam) && orgParam > 0 ? orgParam : null;
  const query = useInsights(days, organisationId);
  const setDays = (d: number) =>
    setParams((p) => {
      const next = new URLSearchParams(p);
      next.set('days', String(d));
      return next;
    });

  return (
    <Stack gap="5" data-testid="insights-page">
      <HStack justify="space-between" wrap="wrap" gap="3">
        <Heading as="h1" size="xl">
          Insights
        </Heading>
        <PeriodPicker value={INSIGHTS_PERIODS.includes(days as 30) ? days : 30} onChange={setDays} />
      </HStack>
      {query.isLoading ? (
        <Spinner />
      ) : query.isError || !query.data ? (
        <Alert.Root status="error">
          <Alert.Indicator />
          <Alert.Title>{errorMessage(query.error, 'The insights could not be loaded.')}</Alert.Title>
        </Alert.Root>
      ) : (
        <InsightsFigures report={query.data} />
      )}
    </Stack>
  );
}

function InsightsFigures({ report }: { report: NonNullable<ReturnType<typeof useInsights>['data']> }) {
  const rows = chartRows(report);
  return (
    <Stack gap="5">
      <Text color="fg.muted" fontSize="sm">
        From {report.from} to {report.to}, in the days of {report.timeZone}.
      </Text>
      <HeadlineFigures figures={headline(report)} />
      <SimpleGrid columns={{ base: 1, xl: 2 }} gap="5">
        <ChartFigure
          testId="figure-sign-ins"
          title="Sign-ins per day"
          kind="bar"
          rows={rows.signIns}
          xKey="day"
          series={[
            { name: 'Succeeded', color: 'teal.solid' },
            { name: 'Failed', color: 'red.solid' },
          ]}
        />
        <ChartFigure
          testId="figure-methods"
          title="Successful sign-ins by method"
          kind="bar"
          rows={rows.byMethod}
          xKey="day"
          series={[
            { name: 'Password', color: 'blue.solid', stackId: 'm' },
            { name: 'Passkey', color: 'purple.solid', stackId: 'm' },
            { name: 'SSO', color: 'orange.solid', stackId: 'm' },
          ]}
        />
        <ChartFigure
          testId="figure-failures"
          title="Why sign-ins failed"
          description={rows.failureReasons.length === 0 ? 'No failed sign-ins in this period.' : undefined}
          kind="horizontal-bar"
          rows={rows.failureReasons}
          xKey="reason"
          series={[{ name: 'Count', color: 'red.solid' }]}
        />
        <ChartFigure
          testId="figure-mfa"
          title="MFA adoption"
          description={`Now ${report.mfaAdoption.enrolled} of ${report.mfaAdoption.total} active members have a second factor (an authenticator app or a passkey).`}
          kind="line"
          rows={rows.mfaTrend}
          xKey="day"
          series={[
            { name: 'Enrolled', color: 'teal.solid' },
            { name: 'Members', color: 'gray.solid' },
          ]}
        />
        <ChartFigure
          testId="figure-seats"
          title="Active users and the seat limit"
          kind="horizontal-bar"
          rows={rows.seats}
          xKey="seats"
          series={[{ name: 'Count', color: 'blue.solid' }]}
        />
        <ChartFigure
          testId="figure-concurrent"
          title="Peak concurrent users and the limit"
          kind="line"
          rows={rows.concurrent}
          xKey="day"
          series={[
            { name: 'Peak', color: 'purple.solid' },
            { name: 'Limit', color: 'red.solid' },
          ]}
        />
      </SimpleGrid>
    </Stack>
  );
}
