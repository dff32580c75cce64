import type { ReactNode } from 'react';
import { Box, Table } from '@chakra-ui/react';

/**
 * A list as a table that scrolls sideways on a narrow screen: a heading row, then the rows (children). The heading
 * row is `columns`, each with the props `header` (e.g. scope "col"), or the cells of `head`; `actions` adds a last
 * column for the rows' buttons, named only for screen readers. The rest of the props go to the table (`size` is "sm"
 * unless given; data-testid, aria-label).
 */
export function DataTable({
  columns = [],
  head,
  header,
  actions,
  caption,
  scroll,
  children,
  ...table
}: {
  columns?: readonly ReactNode[];
  head?: ReactNode;
  header?: Table.ColumnHeaderProps;
  actions?: string;
  /** The table's name, said only to screen readers. */
  caption?: ReactNode;
  /** Props of the scroll area (a height, a border, a name for a focusable region); false for none. */
  scroll?: Table.ScrollAreaProps | false;
  children: ReactNode;
} & Table.RootProps) {
  const list = (
    <Table.Root size="sm" {...table}>
      {caption && <Table.Caption srOnly>{caption}</Table.Caption>}
      <Table.Header>
        <Table.Row>
          {columns.map((column, i) => (
            <Table.ColumnHeader key={i} {...header}>
              {column}
            </Table.ColumnHeader>
          ))}
          {head}
          {actions !== undefined && (
            <Table.ColumnHeader {...header}>
              <Box srOnly>{actions}</Box>
            </Table.ColumnHeader>
          )}
        </Table.Row>
      </Table.Header>
      <Table.Body>{children}</Table.Body>
    </Table.Root>
  );
  return scroll === false ? list : <Table.ScrollArea {...scroll}>{list}</Table.ScrollArea>;
}
