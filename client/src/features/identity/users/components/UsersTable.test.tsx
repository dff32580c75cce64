import { ChakraProvider } from '@chakra-ui/react';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { UserListItem } from '@shared/api-types';
import { system } from '@/app/theme';
import { UsersTable } from './UsersTable';

// getByRole over a table is slow in jsdom on a loaded machine.
vi.setConfig({ testTimeout: 30_000 });

const user: UserListItem = {
  id: 1,
  userEmail: 'ada@example.com',
  isBlocked: false,
  isDisabled: false,
  userRoles: [4],
  firstName: 'Ada',
  lastName: 'Lovelace',
  lastLoginDateTime: null,
  isMFAEnforced: true,
  isMFAEnabled: false,
  isSSO: false,
};

describe('UsersTable headers (spec 000 §2, WCAG 2.1 AA)', () => {
  it('each header is named as shown, not with its resize handle; the handles resize from the keyboard', () => {
    render(
      <ChakraProvider value={system}>
        <UsersTable users={[user]} writer actions={{ onOpen: vi.fn(), onDisableMfa: vi.fn(), onUserGroups: vi.fn() }} />
      </ChakraProvider>,
    );
    const table = screen.getByTestId('users-table');
    const names = [
      'Name',
      'Email',
      'Last Activity',
      'MFA Enabled',
      'SSO Enabled',
      'MFA Enforced',
      'Enabled',
      'System Enabled',
      'Role',
      'Actions',
    ];
    for (const name of names) expect(within(table).getByRole('columnheader', { name })).toBeInTheDocument();

    const handle = within(table).getByRole('separator', { name: 'Resize Email' });
    expect(handle).toHaveAttribute('tabindex', '0');
    expect(handle).toHaveAttribute('aria-valuenow', '240');
    fireEvent.keyDown(handle, { key: 'ArrowRight' });
    expect(handle).toHaveAttribute('aria-valuenow', '250');
    expect(screen.getByTestId('column-email')).toHaveStyle({ width: '250px' });
    fireEvent.keyDown(handle, { key: 'ArrowLeft' });
    fireEvent.keyDown(handle, { key: 'ArrowLeft' });
    expect(handle).toHaveAttribute('aria-valuenow', '230');
  });
});

describe('UsersTable: accounts the directory manages', () => {
  it('carries a "Directory" badge beside the name of a directory-managed account only', () => {
    render(
      <ChakraProvider value={system}>
        <UsersTable
          users={[user, { ...user, id: 2, userEmail: 'dora@example.com', isDirectoryManaged: true }]}
          writer={false}
          actions={{ onOpen: vi.fn(), onDisableMfa: vi.fn(), onUserGroups: vi.fn() }}
        />
      </ChakraProvider>,
    );
    const [plain, managed] = screen.getAllByTestId('user-row');
    expect(within(plain).queryByTestId('directory-badge')).not.toBeInTheDocument();
    expect(within(managed).getByTestId('directory-badge')).toHaveTextContent('Directory');
  });
});
