import { Box, Heading, HStack, Link, Spinner, Stack } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import { paths } from '@/config/paths';
import { useInsights } from '../api/insights-api';
import { headline } from '../insights-view';
import { HeadlineFigures } from './HeadlineFigures';

/** The last 30 days in five figures, with a link to the full insights page (the administrator's home page). */
export function InsightsHeadline() {
  const query = useInsights(30);
  if (query.isError) return null;
  return (
    <Box as="section" aria-labelledby="insights-headline" data-testid="dashboard-insights">
      <Stack gap="3">
        <HStack justify="space-between" wrap="wrap">
          <Heading as="h2" size="lg" id="insights-headline">
            Your organisation, last 30 days
          </Heading>
          <Link asChild colorPalette="blue" variant="underline">
            <RouterLink to={paths.insights}>All insights</RouterLink>
          </Link>
        </HStack>
        {query.data ? <HeadlineFigures figures={headline(query.data)} /> : <Spinner />}
      </Stack>
    </Box>
  );
}
