import { describe, expect, it } from 'vitest';
import { ChakraProvider, Table } from '@chakra-ui/react';
import { render, screen, within } from '@testing-library/react';
import { system } from '@/app/theme';
import { DataTable } from './data-table';

const row = (
  <Table.Row>
    <Table.Cell>HR system</Table.Cell>
    <Table.Cell>
      <button>Revoke HR system</button>
    </Table.Cell>
  </Table.Row>
);

describe('DataTable', () => {
  it('heads the rows with the columns and a last column named only for screen readers', () => {
    render(
      <ChakraProvider value={system}>
        <DataTable aria-label="API keys" columns={['Name']} actions="Actions" header={{ scope: 'col' }}>
          {row}
        </DataTable>
      </ChakraProvider>,
    );
    const table = screen.getByRole('table', { name: 'API keys' });
    const headings = within(table).getAllByRole('columnheader');
    expect(headings.map((h) => h.textContent)).toEqual(['Name', 'Actions']);
    expect(headings.every((h) => h.getAttribute('scope') === 'col')).toBe(true);
    expect(within(table).getByRole('cell', { name: 'HR system' })).toBeInTheDocument();
    expect(table.parentElement?.tagName).toBe('DIV');
  });

  it('without a scroll area, and without an actions column unless asked', () => {
    const { container } = render(
      <ChakraProvider value={system}>
        <DataTable columns={['Name', null]} scroll={false} caption="Passkeys">
          {row}
        </DataTable>
      </ChakraProvider>,
    );
    const table = screen.getByRole('table', { name: 'Passkeys' });
    expect(table.parentElement).toBe(container);
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Name', '']);
  });
});
