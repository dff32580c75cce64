import type { ReactNode } from 'react';
import { Box, Table } from '@chakra-ui/react';

/**
 * A list as a table that scrolls sideways on a narrow screen: a heading row of `columns`, then the rows (children).
 * `actions` adds a last column for the rows' buttons, named only for screen readers. The rest of the props go to the
 * table (`size` is "sm" unless given; data-testid, aria-label).
 */
export function DataTable({
  columns,
  actions,
  headerScope,
  scroll,
  children,
  ...table
}: {
  columns: readonly ReactNode[];
  actions?: string;
  /** The headings' scope attribute, where a page sets it ("col"). */
  headerScope?: 'col';
  /** Props of the scroll area (a height, a border, a name for a focusable region). */
  scroll?: Table.ScrollAreaProps;
  children: ReactNode;
} & Table.RootProps) {
  return (
    <Table.ScrollArea {...scroll}>
      <Table.Root size="sm" {...table}>
        <Table.Header>
          <Table.Row>
            {columns.map((column, i) => (
              <Table.ColumnHeader key={i} scope={headerScope}>
                {column}
              </Table.ColumnHeader>
            ))}
            {actions !== undefined && (
              <Table.ColumnHeader scope={headerScope}>
                <Box srOnly>{actions}</Box>
              </Table.ColumnHeader>
            )}
          </Table.Row>
        </Table.Header>
        <Table.Body>{children}</Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}
