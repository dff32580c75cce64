import { Card, DataList, Heading, SimpleGrid, Spinner, Stack, Text } from '@chakra-ui/react';
import type { SystemInformationEntry } from '@shared/api-types';
import type { SystemEventType } from '@shared/portal/shell';
import { formatMediumDate } from '@/lib/formats';
import { useAppInfo } from '@/lib/app-info';
import { useSystemInformation } from '../api/about-api';

/** Only the first completed entry per event type is shown (spec 001 §4). */
export function firstCompleted(
  entries: readonly SystemInformationEntry[] | undefined,
): SystemInformationEntry | undefined {
  return entries?.find((e) => e.status === 'completed');
}

const NA = 'N/A';

function SystemCard({ title, eventType }: { title: string; eventType: SystemEventType }) {
  const { data, isLoading } = useSystemInformation(eventType);
  const entry = firstCompleted(data);
  return (
    <Card.Root data-testid={`about-${eventType}`}>
      <Card.Header>
        <Heading size="md">{title}</Heading>
      </Card.Header>
      <Card.Body>
        {isLoading ? (
          <Spinner />
        ) : (
          <DataList.Root orientation="horizontal">
            <DataList.Item>
              <DataList.ItemLabel>Version</DataList.ItemLabel>
              <DataList.ItemValue data-testid="about-version">{entry?.version || NA}</DataList.ItemValue>
            </DataList.Item>
            <DataList.Item>
              <DataList.ItemLabel>Message</DataList.ItemLabel>
              <DataList.ItemValue data-testid="about-message">{entry?.message || NA}</DataList.ItemValue>
            </DataList.Item>
            <DataList.Item>
              <DataList.ItemLabel>Information as at</DataList.ItemLabel>
              <DataList.ItemValue data-testid="about-date">
                {entry ? formatMediumDate(entry.startDateTime) : NA}
              </DataList.ItemValue>
            </DataList.Item>
          </DataList.Root>
        )}
      </Card.Body>
    </Card.Root>
  );
}

/** About (spec 001 §2.15): the Corporate Actions Database and COM Engine cards. */
export function AboutPage() {
  const { data: appInfo } = useAppInfo();
  return (
    <Stack gap="6">
      <Heading size="2xl">About</Heading>
      <SimpleGrid columns={{ base: 1, md: 2 }} gap="6">
        <SystemCard title="Corporate Actions Database" eventType="data-sync-update" />
        <SystemCard title="COM Engine" eventType="com-engine" />
      </SimpleGrid>
      {appInfo && (
        <Text color="fg.muted" fontSize="sm" data-testid="about-application">
          {appInfo.productName} version {appInfo.version}
        </Text>
      )}
    </Stack>
  );
}
