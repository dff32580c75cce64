import { SimpleGrid, Stat } from '@chakra-ui/react';
import { headline } from '../insights-view';

/** The headline figures of a period, as cards (the insights page and the administrator's home page). */
export function HeadlineFigures({ figures }: { figures: ReturnType<typeof headline> }) {
  const stats = [
    ['Successful sign-ins', String(figures.succeeded)],
    ['Failed sign-ins', `${figures.failed} (${figures.failureRate})`],
    ['MFA adoption', figures.mfa],
    ['Seats used', figures.seats],
    ['Peak concurrent users', figures.concurrent],
  ];
  return (
    <SimpleGrid columns={{ base: 2, md: 5 }} gap="3" data-testid="insights-headline">
      {stats.map(([label, value]) => (
        <Stat.Root key={label} borderWidth="1px" rounded="md" p="3">
          <Stat.Label>{label}</Stat.Label>
          <Stat.ValueText>{value}</Stat.ValueText>
        </Stat.Root>
      ))}
    </SimpleGrid>
  );
}
