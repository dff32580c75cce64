import { useMemo, useState } from 'react';
import { Box, Flex, Progress } from '@chakra-ui/react';
import { useMutation } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import type { UserListItem, UserListQuery } from '@shared/api-types';
import { Role } from '@shared/roles';
import { paths } from '@/config/paths';
import { RequestSupportAccessDialog } from '@/features/portal/support-access';
import { toaster } from '@/components/ui/toaster';
import { ExportCsvButton } from '@/components/ExportCsvButton';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { errorMessage } from '@/lib/api';
import { useAuth } from '@/lib/auth';
import { useHasRole } from '@/lib/authorization';
import { CAPABILITY_ROLES } from '@shared/roles';
import { useDebounced } from '@/lib/use-debounced';
import { isWriter, USER_TEXTS } from '../account';
import { userListSearch, usersApi, useReloadUsers, useUserList } from '../api/users-api';
import { EMPTY_FILTER, UserFilter, UsersFilterBar } from './UsersFilterBar';
import { UsersHeader } from './UsersHeader';
import { UsersTable } from './UsersTable';
import { Paginator, usePaging } from '@/components/ui/paginator';
import { UsersUnavailable } from './UsersUnavailable';

/** Spec 000 §2 'User admin page' (route /users). E-Support may pass ?organisationId= to list another organisation. */
export function UsersPage() {
  const { roles } = useAuth();
  const writer = isWriter(roles);
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const organisationId = Number(params.get('organisationId')) || undefined;

  const [filter, setFilter] = useState<UserFilter>(EMPTY_FILTER);
  const [supportTarget, setSupportTarget] = useState<{ id: number; email: string } | null>(null);
  const searchText = useDebounced(filter.searchText.trim());
  // A new filter starts again at the first page.
  const { page, pageSize, pager } = usePaging(JSON.stringify([searchText, filter.accessLevel, filter.role]));

  const query = useMemo<UserListQuery>(
    () => ({
      page,
      pageSize: pageSize as UserListQuery['pageSize'],
      searchText: searchText || undefined,
      accessLevel: filter.accessLevel,
      role: filter.role ?? undefined,
      organisationId,
    }),
    [page, pageSize, searchText, filter.accessLevel, filter.role, organisationId],
  );
  const list = useUserList(query);
  const reload = useReloadUsers();

  const disableMfa = useMutation({
    mutationFn: (u: UserListItem) => usersApi.disableUserMfa(u.id),
    onSuccess: () => reload(),
    onError: () => toaster.create({ type: 'error', title: USER_TEXTS.DISABLE_MFA_FAILED }),
  });

  const canErase = useHasRole(CAPABILITY_ROLES.ERASE_USER);
  const [erasing, setErasing] = useState<UserListItem | null>(null);
  const erase = useMutation({
    mutationFn: (u: UserListItem) => usersApi.erase(u.id),
    onSuccess: (r) => {
      setErasing(null);
      toaster.create({ type: 'success', title: r.message });
      reload();
    },
    onError: (e) => toaster.create({ type: 'error', title: errorMessage(e, USER_TEXTS.ERASE_FAILED) }),
  });

  if (list.isError && !list.data) return <UsersUnavailable />;

  return (
    <Box data-testid="users-page">
      <UsersHeader company={list.data?.organisationName} organisationId={organisationId} />
      <Flex justify="space-between" align="start" gap="3" wrap="wrap">
        <UsersFilterBar filter={filter} onChange={setFilter} />
        <ExportCsvButton
          path={`api/users/export${userListSearch({ ...query, searchText: filter.searchText.trim() || undefined, page: undefined, pageSize: undefined })}`}
          fileName="users.csv"
        />
      </Flex>
      <Box h="1" mb="1">
        {list.isFetching && (
          <Progress.Root
            value={null}
            size="xs"
            colorPalette="blue"
            data-testid="users-loading"
            aria-label="Loading users"
          >
            <Progress.Track>
              <Progress.Range />
            </Progress.Track>
          </Progress.Root>
        )}
      </Box>
      {list.data && (
        <>
          <UsersTable
            users={list.data.items}
            writer={writer}
            actions={{
              onOpen: (u) => navigate(paths.userRoles(u.id)),
              onDisableMfa: (u) => disableMfa.mutate(u),
              onUserGroups: (u) => navigate(paths.userGroupsOfUser(u.id)),
              onErase: canErase ? setErasing : undefined,
              ...(roles.includes(Role.E_SUPPORT)
                ? { onSupportAccess: (u: UserListItem) => setSupportTarget({ id: u.id, email: u.userEmail }) }
                : {}),
            }}
          />
          <ConfirmDialog
            open={erasing !== null}
            title={USER_TEXTS.ERASE_TITLE}
            message={erasing ? USER_TEXTS.eraseQuestion(erasing.userEmail) : ''}
            confirmLabel={USER_TEXTS.ERASE_CONFIRM}
            cancelLabel="Cancel"
            loading={erase.isPending}
            onConfirm={() => erasing && erase.mutate(erasing)}
            onClose={() => setErasing(null)}
          />
          <Paginator {...pager} totalRecords={list.data.totalRecords} />
        </>
      )}
      <RequestSupportAccessDialog member={supportTarget} onClose={() => setSupportTarget(null)} />
    </Box>
  );
}
