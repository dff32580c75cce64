import { Fragment, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useDebounced } from '@/lib/use-debounced';
import { Box, Button, Code, Flex, IconButton, Input, NativeSelect, Progress, Table, Text } from '@chakra-ui/react';
import {
  AUDIT_EVENT_TYPE_IDS,
  AUDIT_EVENT_TYPES,
  AuditEventItem,
  AuditEventQuery,
  AuditEventType,
} from '@shared/audit';
import { ExportCsvButton } from '@/components/ExportCsvButton';
import { PageHeader } from '@/components/ui/page-header';
import { Paginator, usePaging } from '@/components/ui/paginator';
import { formatAddress, formatDateTime } from '@/lib/formats';
import { auditApi, useAuditEvents, useOrganisationAccounts } from '../api/audit-api';

export interface AuditFilter {
  from: string;
  to: string;
  type: AuditEventType | '';
  actorId: string;
  targetId: string;
  /** The events of one support-access request (docs/support-access.md); `?supportAccessId=` opens the page on it. */
  supportAccessId: string;
  searchText: string;
}

export const EMPTY_AUDIT_FILTER: AuditFilter = {
  from: '',
  to: '',
  type: '',
  actorId: '',
  targetId: '',
  supportAccessId: '',
  searchText: '',
};

/** A day picked in the browser, as the instant its local start (or end) falls on, so the range means the user's own days. */
export function localDayBound(day: string, side: 'from' | 'to'): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return undefined;
  const start = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return side === 'from'
    ? start.toISOString()
    : new Date(new Date(start).setDate(start.getDate() + 1) - 1).toISOString();
}

/** The filters as the API takes them: only those that are set. */
export function toAuditQuery(filter: AuditFilter, searchText: string): AuditEventQuery {
  return {
    from: localDayBound(filter.from, 'from'),
    to: localDayBound(filter.to, 'to'),
    type: filter.type || undefined,
    actorId: filter.actorId ? Number(filter.actorId) : undefined,
    targetId: filter.targetId ? Number(filter.targetId) : undefined,
    supportAccessId: /^\d+$/.test(filter.supportAccessId) ? Number(filter.supportAccessId) : undefined,
    searchText: searchText || undefined,
  };
}

function party(kind: string, email: string | null, id: number | null): string {
  if (kind === 'service') return 'Service key';
  if (kind === 'scim-token') return `Provisioning token "${email ?? id ?? ''}"`;
  if (kind === 'api-key') return `API key "${email ?? id ?? ''}"`;
  if (kind === 'anonymous' && !id) return 'Anonymous';
  return email ?? (id ? `#${id}` : '—');
}

function Details({ e }: { e: AuditEventItem }) {
  return (
    <Box fontSize="sm" py="2" data-testid="audit-details">
      <Text>
        <b>Actor:</b> {party(e.actorKind, e.actorEmail, e.actorId)}
        {e.actorOrganisationId ? ` (organisation ${e.actorOrganisationId})` : ''}
      </Text>
      {e.onBehalfOfEmail && (
        <Text>
          <b>On behalf of:</b> {e.onBehalfOfEmail} (support access #{e.supportAccessId})
        </Text>
      )}
      <Text>
        <b>Target:</b> {e.targetEmail ?? '—'}
        {e.targetOrganisationId ? ` (organisation ${e.targetOrganisationId})` : ''}
      </Text>
      <Text>
        <b>Address:</b> {formatAddress(e.ip, '—')} · <b>User agent:</b> {e.userAgent ?? '—'}
      </Text>
      {e.changes && Object.keys(e.changes).length > 0 && (
        <Box mt="1">
          <b>Changes:</b>
          {Object.entries(e.changes).map(([field, c]) => (
            <Text key={field} ml="3">
              {field}: <Code>{JSON.stringify(c.from)}</Code> → <Code>{JSON.stringify(c.to)}</Code>
            </Text>
          ))}
        </Box>
      )}
    </Box>
  );
}

/** Route users/audit: who did what, newest first, filtered and paged like the user list, with a CSV export. */
export function AuditLogPage() {
  const [params] = useSearchParams();
  const [filter, setFilter] = useState<AuditFilter>(() => ({
    ...EMPTY_AUDIT_FILTER,
    supportAccessId: params.get('supportAccessId') ?? '',
  }));
  const [open, setOpen] = useState<Set<number>>(new Set());
  const searchText = useDebounced(filter.searchText.trim());
  const filters = useMemo(() => toAuditQuery(filter, searchText), [filter, searchText]);
  // A new filter starts again at the first page.
  const { page, pageSize, pager } = usePaging(filters);
  const query = useMemo<AuditEventQuery>(
    () => ({ ...filters, page, pageSize: pageSize as AuditEventQuery['pageSize'] }),
    [filters, page, pageSize],
  );
  const list = useAuditEvents(query);
  const accounts = useOrganisationAccounts();

  const set = (patch: Partial<AuditFilter>) => setFilter((f) => ({ ...f, ...patch }));
  const toggle = (id: number) =>
    setOpen((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const people = accounts.data?.users ?? [];

  return (
    <Box data-testid="audit-page">
      <PageHeader title="Audit Log">
        {/* The export takes the filters as they stand, without waiting for the list's debounce. */}
        <ExportCsvButton
          path={auditApi.exportPath(toAuditQuery(filter, filter.searchText.trim()))}
          fileName="audit-log.csv"
        />
      </PageHeader>
      <Flex gap="3" mb="3" wrap="wrap" align="end" data-testid="audit-filter-bar">
        {(['from', 'to'] as const).map((key) => (
          <Box key={key}>
            <Text fontSize="xs">{key === 'from' ? 'From' : 'To'}</Text>
            <Input
              size="sm"
              type="date"
              aria-label={key === 'from' ? 'From date' : 'To date'}
              value={filter[key]}
              onChange={(e) => set({ [key]: e.target.value })}
            />
          </Box>
        ))}
        <NativeSelect.Root size="sm" width="56">
          <NativeSelect.Field
            aria-label="Event type"
            value={filter.type}
            onChange={(e) => set({ type: e.target.value as AuditEventType | '' })}
          >
            <option value="">All events</option>
            {AUDIT_EVENT_TYPE_IDS.map((t) => (
              <option key={t} value={t}>
                {AUDIT_EVENT_TYPES[t]}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
        {(['actorId', 'targetId'] as const).map((key) => (
          <NativeSelect.Root key={key} size="sm" width="56">
            <NativeSelect.Field
              aria-label={key === 'actorId' ? 'Actor' : 'Target'}
              value={filter[key]}
              onChange={(e) => set({ [key]: e.target.value })}
            >
              <option value="">{key === 'actorId' ? 'Any actor' : 'Any target'}</option>
              {people.map((u) => (
                <option key={u.id} value={u.id}>
                  {u.userEmail}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        ))}
        <Input
          size="sm"
          maxW="xs"
          placeholder="Search summary, e-mail or address"
          aria-label="Search"
          value={filter.searchText}
          onChange={(e) => set({ searchText: e.target.value })}
        />
        <Input
          size="sm"
          maxW="40"
          inputMode="numeric"
          placeholder="Support access #"
          aria-label="Support access request"
          value={filter.supportAccessId}
          onChange={(e) => set({ supportAccessId: e.target.value.trim() })}
        />
        <Button size="sm" variant="ghost" onClick={() => setFilter(EMPTY_AUDIT_FILTER)}>
          Clear filters
        </Button>
      </Flex>
      <Box h="1" mb="1">
        {list.isFetching && (
          <Progress.Root value={null} size="xs" colorPalette="blue" aria-label="Loading audit events">
            <Progress.Track>
              <Progress.Range />
            </Progress.Track>
          </Progress.Root>
        )}
      </Box>
      {list.isError && !list.data && <Text color="fg.error">The audit log could not be loaded. Please try again.</Text>}
      {list.data && (
        <>
          <Table.ScrollArea borderWidth="1px" rounded="md">
            <Table.Root size="sm" data-testid="audit-table">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader w="8" />
                  <Table.ColumnHeader>When</Table.ColumnHeader>
                  <Table.ColumnHeader>Event</Table.ColumnHeader>
                  <Table.ColumnHeader>Actor</Table.ColumnHeader>
                  <Table.ColumnHeader>Target</Table.ColumnHeader>
                  <Table.ColumnHeader>Address</Table.ColumnHeader>
                  <Table.ColumnHeader>Summary</Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {list.data.items.length === 0 && (
                  <Table.Row>
                    <Table.Cell colSpan={7}>No events match these filters.</Table.Cell>
                  </Table.Row>
                )}
                {list.data.items.map((e) => (
                  <Fragment key={e.id}>
                    <Table.Row data-testid="audit-row">
                      <Table.Cell>
                        <IconButton
                          size="2xs"
                          variant="ghost"
                          aria-label={open.has(e.id) ? 'Hide details' : 'Show details'}
                          aria-expanded={open.has(e.id)}
                          onClick={() => toggle(e.id)}
                        >
                          {open.has(e.id) ? '▾' : '▸'}
                        </IconButton>
                      </Table.Cell>
                      <Table.Cell whiteSpace="nowrap">{formatDateTime(e.occurredAt)}</Table.Cell>
                      <Table.Cell>{AUDIT_EVENT_TYPES[e.type] ?? e.type}</Table.Cell>
                      <Table.Cell>
                        {party(e.actorKind, e.actorEmail, e.actorId)}
                        {e.onBehalfOfEmail ? ` as ${e.onBehalfOfEmail}` : ''}
                      </Table.Cell>
                      <Table.Cell>{e.targetEmail ?? '—'}</Table.Cell>
                      <Table.Cell>{formatAddress(e.ip, '—')}</Table.Cell>
                      <Table.Cell>{e.summary}</Table.Cell>
                    </Table.Row>
                    {open.has(e.id) && (
                      <Table.Row>
                        <Table.Cell />
                        <Table.Cell colSpan={6}>
                          <Details e={e} />
                        </Table.Cell>
                      </Table.Row>
                    )}
                  </Fragment>
                ))}
              </Table.Body>
            </Table.Root>
          </Table.ScrollArea>
          <Paginator {...pager} totalRecords={list.data.totalRecords} />
          {list.data.totalIsCapped && (
            <Text fontSize="sm" color="fg.muted" mt="2" data-testid="audit-capped">
              More than {list.data.totalRecords.toLocaleString()} events match: the pages reach the newest{' '}
              {list.data.totalRecords.toLocaleString()}. Narrow the filters to see older ones, or export them all.
            </Text>
          )}
        </>
      )}
    </Box>
  );
}
