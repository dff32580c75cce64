import { SegmentGroup } from '@chakra-ui/react';
import { INSIGHTS_PERIODS } from '@shared/administration/insights';

/** The period of the insights: the last 7, 30, 90 or 365 days. */
export function PeriodPicker({ value, onChange }: { value: number; onChange: (days: number) => void }) {
  return (
    <SegmentGroup.Root
      value={String(value)}
      onValueChange={(e) => e.value && onChange(Number(e.value))}
      aria-label="Period"
      data-testid="insights-period"
    >
      <SegmentGroup.Indicator />
      <SegmentGroup.Items items={INSIGHTS_PERIODS.map((d) => ({ value: String(d), label: `${d} days` }))} />
    </SegmentGroup.Root>
  );
}
