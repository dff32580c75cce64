import { useEffect } from 'react';
import { Box, Button, Card, Checkbox, Heading, NativeSelect, Spinner, Stack, Text } from '@chakra-ui/react';
import { useMutation } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { BASE_ROLE, Role, ROLE_NAMES } from '@shared/roles';
import { SCIM_MESSAGES } from '@shared/identity/scim';
import { toaster } from '@/components/ui/toaster';
import { errorMessage } from '@/lib/api';
import { useAuth } from '@/lib/auth';
import { Account, assignableRoles, isWriter, roleIdsToSave, toAccount, USER_TEXTS } from '../account';
import { formatDateTime } from '@/lib/formats';
import { usersApi, useLastLogin, useReloadUsers, useSingleUser } from '../api/users-api';

function Check({
  label,
  checked,
  onChange,
  readOnly,
  disabled,
}: {
  label: string;
  checked: boolean;
  onChange: (v: boolean) => void;
  readOnly?: boolean;
  disabled?: boolean;
}) {
  return (
    <Checkbox.Root
      checked={checked}
      readOnly={readOnly}
      disabled={disabled}
      onCheckedChange={(e) => onChange(e.checked === true)}
      colorPalette="blue"
    >
      <Checkbox.HiddenInput />
      <Checkbox.Control />
      <Checkbox.Label>{label}</Checkbox.Label>
    </Checkbox.Root>
  );
}

function LastAccess({ userId }: { userId: number }) {
  const last = useLastLogin(userId);
  let text: string;
  if (last.isLoading) text = 'Loading...';
  else if (last.isError)
    text = `The last access date could not be loaded: ${errorMessage(last.error, 'Something went wrong')}`;
  else text = last.data?.loginDateTime ? formatDateTime(last.data.loginDateTime) : USER_TEXTS.NEVER_LOGGED_IN;
  return (
    <Text fontSize="sm" data-testid="last-access">
      Last access: {text}
    </Text>
  );
}

/** Spec 000 §2 'User roles page' (users/roles/{id}) with the rules of §4. */
export function UserRolesPage() {
  const { id = '' } = useParams();
  const { user: me, roles: myRoles } = useAuth();
  const single = useSingleUser(id);
  const reload = useReloadUsers();

  useEffect(() => {
    if (single.error)
      toaster.create({
        type: 'error',
        title: 'Error',
        description: errorMessage(single.error, 'Something went wrong'),
      });
  }, [single.error]);

  const change = useMutation({
    mutationFn: (run: () => Promise<unknown>) => run(),
    onSuccess: async () => {
      toaster.create({ type: 'success', title: USER_TEXTS.CHANGE_SAVED });
      await reload();
    },
    onError: (error) =>
      toaster.create({ type: 'error', title: 'Error', description: errorMessage(error, 'Something went wrong') }),
  });

  if (single.isLoading) return <Spinner data-testid="roles-loading" />;
  if (!single.data) return <Text data-testid="roles-error">{errorMessage(single.error, 'Something went wrong')}</Text>;

  const account: Account = toAccount(single.data);
  const isSelf = me?.id === account.id;
  const isSiteAdmin = myRoles.includes(Role.SITE_ADMIN);
  // Nobody changes their own access; support edits roles only (spec 000 §4, §6).
  // The directory owns the access of the accounts it manages (SCIM active): changed there.
  const directoryManaged = !!single.data.isDirectoryManaged;
  const accessReadOnly = isSelf || !isWriter(myRoles) || directoryManaged;
  const options = assignableRoles(myRoles, account, isSelf);
  const shown = options.includes(account.role) ? options : [account.role, ...options];
  const busy = change.isPending;
  // The site admin's switches of another account (read-only on one's own).
  const selfLockedCheck = (label: string, checked: boolean, save: (v: boolean) => Promise<unknown>) => (
    <Check
      label={label}
      checked={checked}
      readOnly={isSelf}
      disabled={busy}
      onChange={(v) => change.mutate(() => save(v))}
    />
  );

  return (
    <Stack gap="5" maxW="2xl" data-testid="user-roles-page">
      <Box>
        <Heading as="h1" size="xl">
          {account.name ? `${account.name}'s Details` : 'Account Details'}
        </Heading>
        <Text color="fg.muted" data-testid="account-email">
          {account.userEmail}
        </Text>
      </Box>

      <Card.Root>
        <Card.Header>
          <Heading size="md">Access</Heading>
        </Card.Header>
        <Card.Body>
          <Stack gap="3">
            <Check
              label="User Enabled"
              checked={account.hasAccess}
              readOnly={accessReadOnly}
              disabled={busy}
              onChange={(v) => change.mutate(() => usersApi.disableUser(account.id, !v))}
            />
            {directoryManaged && (
              <Text fontSize="sm" color="fg.muted" data-testid="directory-managed-note">
                {SCIM_MESSAGES.DIRECTORY_MANAGED_NOTE}
              </Text>
            )}
            <LastAccess userId={account.id} />
            {isSiteAdmin &&
              account.role === BASE_ROLE &&
              selfLockedCheck('Administrator', account.isAdministrator, (v) =>
                usersApi.updateRole(account.id, roleIdsToSave(account.role, v)),
              )}
            {isSiteAdmin &&
              selfLockedCheck('SSO Enabled', account.isSSO, (v) => usersApi.updateSsoStatus(account.id, v))}
            {isSiteAdmin &&
              selfLockedCheck('MFA Enforced', account.isMFAEnforced, (v) => usersApi.enforceMfa(account.id, v))}
          </Stack>
        </Card.Body>
      </Card.Root>

      <Card.Root>
        <Card.Header>
          <Heading size="md">Role</Heading>
        </Card.Header>
        <Card.Body>
          <Stack gap="3" align="start">
            <NativeSelect.Root size="sm" width="64" disabled={busy || isSelf}>
              <NativeSelect.Field
                aria-label="Role"
                value={account.role}
                onChange={(e) => {
                  const role = Number(e.target.value) as Role;
                  // Leaving the base role drops the administrator flag (spec 000 §4).
                  change.mutate(() =>
                    usersApi.updateRole(account.id, roleIdsToSave(role, role === BASE_ROLE && account.isAdministrator)),
                  );
                }}
              >
                {shown.map((r) => (
                  <option key={r} value={r} disabled={!options.includes(r)}>
                    {ROLE_NAMES[r]}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
            {isSiteAdmin && (
              <Button
                size="sm"
                variant="outline"
                colorPalette="red"
                disabled={(!account.isMFAEnabled && !account.hasPasskey) || busy}
                onClick={() => change.mutate(() => usersApi.disableUserMfa(account.id))}
              >
                Disable User MFA
              </Button>
            )}
          </Stack>
        </Card.Body>
      </Card.Root>
    </Stack>
  );
}
