import { useId } from 'react';
import { Box, Heading, Stack, Table, Text } from '@chakra-ui/react';
import { Chart, useChart } from '@chakra-ui/charts';
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import { DataTable } from '@/components/ui/data-table';

export interface FigureSeries {
  name: string;
  color: string;
  stackId?: string;
}

type Row = Record<string, string | number>;

/**
 * One figure of the insights: a chart in the theme's colours (Chakra UI charts on Recharts) and, beside it, the
 * same figures as a table for screen readers and for copying. The chart itself is hidden from assistive
 * technology: the table carries every number it draws.
 */
export function ChartFigure({
  title,
  description,
  kind,
  rows,
  xKey,
  series,
  testId,
}: {
  title: string;
  description?: string;
  kind: 'bar' | 'line' | 'horizontal-bar';
  rows: Row[];
  xKey: string;
  series: FigureSeries[];
  testId: string;
}) {
  const titleId = useId();
  const chart = useChart<Row>({ data: rows, series: series.map((s) => ({ ...s, name: s.name as keyof Row })) });
  const common = { data: chart.data, accessibilityLayer: false, responsive: true } as const;
  const axisX = <XAxis dataKey={chart.key(xKey)} tickLine={false} axisLine={false} />;
  const axisY = <YAxis allowDecimals={false} tickLine={false} axisLine={false} width={40} />;
  const grid = <CartesianGrid stroke={chart.color('border.muted')} vertical={false} />;
  const tooltip = <Tooltip animationDuration={100} content={<Chart.Tooltip />} />;
  const legend = series.length > 1 ? <Legend content={<Chart.Legend />} /> : null;
  // Recharts 3 reads its parts from fragments too: the grid, axes, tooltip and legend of the upright charts.
  const frame = (
    <>
      {grid}
      {axisX}
      {axisY}
      {tooltip}
      {legend}
    </>
  );
  const bars = (stacked: boolean) =>
    chart.series.map((s) => (
      <Bar
        key={String(s.name)}
        isAnimationActive={false}
        dataKey={chart.key(s.name)}
        fill={chart.color(s.color)}
        stackId={stacked ? s.stackId : undefined}
      />
    ));
  return (
    <Box as="figure" aria-labelledby={titleId} data-testid={testId} borderWidth="1px" rounded="md" p="4">
      <Stack gap="3">
        <Heading as="h2" size="md" id={titleId}>
          {title}
        </Heading>
        {description && (
          <Text fontSize="sm" color="fg.muted">
            {description}
          </Text>
        )}
        <Box aria-hidden="true" data-testid={`${testId}-chart`}>
          <Chart.Root maxH="xs" chart={chart}>
            {kind === 'line' ? (
              <LineChart {...common}>
                {frame}
                {chart.series.map((s) => (
                  <Line
                    key={String(s.name)}
                    isAnimationActive={false}
                    dataKey={chart.key(s.name)}
                    stroke={chart.color(s.color)}
                    strokeWidth={2}
                    dot={false}
                  />
                ))}
              </LineChart>
            ) : kind === 'horizontal-bar' ? (
              <BarChart {...common} layout="vertical">
                <XAxis type="number" allowDecimals={false} tickLine={false} axisLine={false} />
                <YAxis type="category" dataKey={chart.key(xKey)} width={180} tickLine={false} axisLine={false} />
                {tooltip}
                {bars(false)}
              </BarChart>
            ) : (
              <BarChart {...common}>
                {frame}
                {bars(true)}
              </BarChart>
            )}
          </Chart.Root>
        </Box>
        <DataTable
          data-testid={`${testId}-table`}
          caption={title}
          columns={[xKey, ...series.map((s) => s.name)]}
          header={{ scope: 'col', textTransform: 'capitalize' }}
          scroll={{ maxH: 'xs', tabIndex: 0, 'aria-label': `${title}: the figures`, borderWidth: '1px', rounded: 'sm' }}
        >
          {rows.map((r, i) => (
            <Table.Row key={`${String(r[xKey])}-${i}`}>
              <Table.Cell>{r[xKey]}</Table.Cell>
              {series.map((s) => (
                <Table.Cell key={s.name} textAlign="end">
                  {r[s.name]}
                </Table.Cell>
              ))}
            </Table.Row>
          ))}
        </DataTable>
      </Stack>
    </Box>
  );
}
