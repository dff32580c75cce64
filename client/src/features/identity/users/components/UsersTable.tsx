import { useCallback, useState } from 'react';
import { Badge, Box, HStack, IconButton, Menu, Portal, Table, Text } from '@chakra-ui/react';
import { SUPPORT_ACCESS_MENU } from '@/features/portal/support-access';
import type { UserListItem } from '@shared/api-types';
import { SCIM_MESSAGES } from '@shared/identity/scim';
import { formatDateTime } from '@/lib/formats';
import { displayName, roleDisplay, USER_TEXTS } from '../account';

export type ColumnKey =
  | 'name'
  | 'email'
  | 'lastActivity'
  | 'mfaEnabled'
  | 'ssoEnabled'
  | 'mfaEnforced'
  | 'enabled'
  | 'systemEnabled'
  | 'role';

const yesNo = (b: boolean) => (b ? 'Yes' : 'No');

/** Beside the name of an account the organisation's directory manages (SCIM). */
export const DIRECTORY_BADGE = 'Directory';

/** Spec 000 §2 'User admin page': the columns, in order. */
export const COLUMNS: Array<{ key: ColumnKey; header: string; width: number; cell: (u: UserListItem) => string }> = [
  { key: 'name', header: 'Name', width: 180, cell: (u) => displayName(u) || USER_TEXTS.NO_NAME },
  { key: 'email', header: 'Email', width: 240, cell: (u) => u.userEmail },
  {
    key: 'lastActivity',
    header: 'Last Activity',
    width: 190,
    cell: (u) => (u.lastLoginDateTime ? formatDateTime(u.lastLoginDateTime) : USER_TEXTS.NEVER_LOGGED_IN),
  },
  { key: 'mfaEnabled', header: 'MFA Enabled', width: 110, cell: (u) => yesNo(u.isMFAEnabled || !!u.hasPasskey) },
  { key: 'ssoEnabled', header: 'SSO Enabled', width: 110, cell: (u) => yesNo(u.isSSO) },
  { key: 'mfaEnforced', header: 'MFA Enforced', width: 120, cell: (u) => yesNo(u.isMFAEnforced) },
  // 'Enabled' is the administrators' switch; 'System Enabled' is false while the system blocks the account.
  { key: 'enabled', header: 'Enabled', width: 90, cell: (u) => yesNo(!u.isDisabled) },
  { key: 'systemEnabled', header: 'System Enabled', width: 130, cell: (u) => yesNo(!u.isBlocked) },
  { key: 'role', header: 'Role', width: 200, cell: (u) => roleDisplay(u.userRoles) },
];

const MIN_WIDTH = 60;
const MAX_WIDTH = 800;
const RESIZE_STEP = 10;
const clampWidth = (w: number) => Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, Math.round(w)));

/** Column widths that the user drags with the handle on each header's right edge. */
export function useColumnWidths() {
  const [widths, setWidths] = useState<Record<ColumnKey, number>>(
    () => Object.fromEntries(COLUMNS.map((c) => [c.key, c.width])) as Record<ColumnKey, number>,
  );
  const start = useCallback(
    (key: ColumnKey, e: React.PointerEvent) => {
      e.preventDefault();
      e.stopPropagation();
      const x0 = e.clientX;
      const w0 = widths[key];
      const move = (ev: PointerEvent) => setWidths((w) => ({ ...w, [key]: clampWidth(w0 + ev.clientX - x0) }));
      const up = () => {
        window.removeEventListener('pointermove', move);
        window.removeEventListener('pointerup', up);
      };
      window.addEventListener('pointermove', move);
      window.addEventListener('pointerup', up);
    },
    [widths],
  );
  /** The keyboard's way: arrows on the focused handle. */
  const resizeBy = useCallback(
    (key: ColumnKey, delta: number) => setWidths((w) => ({ ...w, [key]: clampWidth(w[key] + delta) })),
    [],
  );
  return { widths, start, resizeBy };
}

export interface RowActions {
  onOpen: (u: UserListItem) => void;
  onDisableMfa: (u: UserListItem) => void;
  onUserGroups: (u: UserListItem) => void;
  /** Erase an account whose access is off: offered to site admins and E-Support only. */
  onErase?: (u: UserListItem) => void;
  /** E-Support: ask to act as this member (support access). */
  onSupportAccess?: (u: UserListItem) => void;
}

function ActionMenu({ user, actions, writer }: { user: UserListItem; actions: RowActions; writer: boolean }) {
  return (
    <Menu.Root>
      <Menu.Trigger asChild>
        <IconButton size="xs" variant="ghost" aria-label={`Actions for ${user.userEmail}`}>
          ⋮
        </IconButton>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content>
            {writer && (
              <>
                <Menu.Item value="update" onClick={() => actions.onOpen(user)}>
                  Update User Details
                </Menu.Item>
                <Menu.Item
                  value="disable-mfa"
                  disabled={!user.isMFAEnabled && !user.hasPasskey}
                  onClick={() => (user.isMFAEnabled || user.hasPasskey) && actions.onDisableMfa(user)}
                >
                  Disable User MFA
                </Menu.Item>
                <Menu.Item value="user-groups" onClick={() => actions.onUserGroups(user)}>
                  View User Group Mapping
                </Menu.Item>
              </>
            )}
            {actions.onSupportAccess && (
              <Menu.Item value="support-access" onClick={() => actions.onSupportAccess?.(user)}>
                {SUPPORT_ACCESS_MENU}
              </Menu.Item>
            )}
            {actions.onErase && (user.isDisabled || user.isBlocked) && (
              <Menu.Item value="erase" color="fg.error" onClick={() => actions.onErase?.(user)}>
                Erase
              </Menu.Item>
            )}
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}

/**
 * Spec 000 §2: the table; the frozen actions column and the double-click exist for writers only, and for E-Support
 * the actions column holds its request for support access.
 */
export function UsersTable({
  users,
  writer,
  actions,
}: {
  users: UserListItem[];
  writer: boolean;
  actions: RowActions;
}) {
  const { widths, start, resizeBy } = useColumnWidths();
  // Writers' actions, and E-Support's request for support access.
  const withActions = writer || !!actions.onSupportAccess;
  const total = COLUMNS.reduce((s, c) => s + widths[c.key], 0) + (withActions ? 70 : 0);
  return (
    <Box overflowX="auto" borderWidth="1px" rounded="md">
      <Table.Root
        size="sm"
        data-testid="users-table"
        style={{ tableLayout: 'fixed', width: `${total}px`, minWidth: '100%' }}
        striped
      >
        <Table.Header>
          <Table.Row>
            {COLUMNS.map((c) => (
              // Named by its text alone: the resize handle inside would otherwise make it 'Name Resize Name'.
              <Table.ColumnHeader
                key={c.key}
                position="relative"
                style={{ width: `${widths[c.key]}px` }}
                data-testid={`column-${c.key}`}
                aria-labelledby={`users-column-${c.key}`}
              >
                <Text truncate id={`users-column-${c.key}`}>
                  {c.header}
                </Text>
                <Box
                  role="separator"
                  tabIndex={0}
                  aria-orientation="vertical"
                  aria-label={`Resize ${c.header}`}
                  aria-valuenow={widths[c.key]}
                  aria-valuemin={MIN_WIDTH}
                  aria-valuemax={MAX_WIDTH}
                  onKeyDown={(e) => {
                    const delta = e.key === 'ArrowRight' ? RESIZE_STEP : e.key === 'ArrowLeft' ? -RESIZE_STEP : 0;
                    if (!delta) return;
                    e.preventDefault();
                    resizeBy(c.key, delta);
                  }}
                  _focusVisible={{ bg: 'blue.500', outline: 'none' }}
                  data-testid={`resize-${c.key}`}
                  position="absolute"
                  top="0"
                  right="0"
                  h="100%"
                  w="6px"
                  cursor="col-resize"
                  _hover={{ bg: 'blue.300' }}
                  onPointerDown={(e) => start(c.key, e)}
                />
              </Table.ColumnHeader>
            ))}
            {withActions && (
              <Table.ColumnHeader
                position="sticky"
                right="0"
                bg="bg"
                zIndex="1"
                style={{ width: '70px' }}
                borderLeftWidth="1px"
                data-testid="actions-column"
              >
                Actions
              </Table.ColumnHeader>
            )}
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {users.length === 0 ? (
            <Table.Row>
              <Table.Cell colSpan={COLUMNS.length + (withActions ? 1 : 0)} textAlign="center" py="6">
                {USER_TEXTS.NO_USERS}
              </Table.Cell>
            </Table.Row>
          ) : (
            users.map((u) => (
              <Table.Row
                key={u.id}
                data-testid="user-row"
                data-user-id={u.id}
                onDoubleClick={writer ? () => actions.onOpen(u) : undefined}
                cursor={writer ? 'pointer' : undefined}
              >
                {COLUMNS.map((c) => (
                  <Table.Cell key={c.key} data-column={c.key}>
                    {c.key === 'name' && u.isDirectoryManaged ? (
                      <HStack gap="1">
                        <Text truncate>{c.cell(u)}</Text>
                        <Badge
                          size="sm"
                          colorPalette="purple"
                          title={SCIM_MESSAGES.DIRECTORY_MANAGED_NOTE}
                          data-testid="directory-badge"
                        >
                          {DIRECTORY_BADGE}
                        </Badge>
                      </HStack>
                    ) : (
                      <Text truncate>{c.cell(u)}</Text>
                    )}
                  </Table.Cell>
                ))}
                {withActions && (
                  <Table.Cell position="sticky" right="0" bg="bg" zIndex="1" borderLeftWidth="1px">
                    <ActionMenu user={u} actions={actions} writer={writer} />
                  </Table.Cell>
                )}
              </Table.Row>
            ))
          )}
        </Table.Body>
      </Table.Root>
    </Box>
  );
}
