import { useState } from 'react';
import { Button, Flex, HStack, NativeSelect, Text } from '@chakra-ui/react';
import { LIMITS } from '@shared/limits';

/**
 * 'Showing {first} to {last} of {totalRecords} entries' (spec 000 §2); 'of more than {totalRecords}' when the
 * server capped the count of a text search's matches.
 */
export function pageReport(page: number, pageSize: number, totalRecords: number, totalIsCapped = false): string {
  const first = totalRecords === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(page * pageSize, totalRecords);
  return `Showing ${first} to ${last} of ${totalIsCapped ? 'more than ' : ''}${totalRecords} entries`;
}

/**
 * A list's page and page size: a new page size, or a new value of `resetOn` (the filters), starts again at the
 * first page (state adjusted while rendering, not in an effect). `pager` is the Paginator's wiring.
 */
export function usePaging(resetOn: unknown) {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(LIMITS.DEFAULT_PAGE_SIZE);
  const [pageFilters, setPageFilters] = useState(resetOn);
  if (pageFilters !== resetOn) {
    setPageFilters(resetOn);
    setPage(1);
  }
  const onPageSize = (s: number) => {
    setPageSize(s);
    setPage(1);
  };
  return { page, pageSize, pager: { page, pageSize, onPage: setPage, onPageSize } };
}

/** First, previous, page n of m, next, last, and the page size (spec 000 §2; the users and the audit lists). */
export function Paginator({
  page,
  pageSize,
  totalRecords,
  totalIsCapped = false,
  onPage,
  onPageSize,
}: {
  page: number;
  pageSize: number;
  totalRecords: number;
  totalIsCapped?: boolean;
  onPage: (p: number) => void;
  onPageSize: (s: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(totalRecords / pageSize));
  return (
    <Flex justify="space-between" align="center" mt="3" gap="3" wrap="wrap" data-testid="users-paginator">
      <Text fontSize="sm" data-testid="page-report">
        {pageReport(page, pageSize, totalRecords, totalIsCapped)}
      </Text>
      <HStack gap="1">
        <Button size="xs" variant="outline" onClick={() => onPage(1)} disabled={page <= 1} aria-label="First page">
          «
        </Button>
        <Button
          size="xs"
          variant="outline"
          onClick={() => onPage(page - 1)}
          disabled={page <= 1}
          aria-label="Previous page"
        >
          ‹
        </Button>
        <Text fontSize="sm" px="2" data-testid="page-number">
          Page {page} of {pages}
        </Text>
        <Button
          size="xs"
          variant="outline"
          onClick={() => onPage(page + 1)}
          disabled={page >= pages}
          aria-label="Next page"
        >
          ›
        </Button>
        <Button
          size="xs"
          variant="outline"
          onClick={() => onPage(pages)}
          disabled={page >= pages}
          aria-label="Last page"
        >
          »
        </Button>
        <NativeSelect.Root size="xs" width="20">
          <NativeSelect.Field
            aria-label="Rows per page"
            value={pageSize}
            onChange={(e) => onPageSize(Number(e.target.value))}
          >
            {LIMITS.PAGE_SIZES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </HStack>
    </Flex>
  );
}
