import { useState } from 'react';
import { Avatar, Button, Menu, Portal, Tooltip } from '@chakra-ui/react';
import { useLocation, useNavigate } from 'react-router';
import type { CurrentUserInfo } from '@shared/api-types';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { paths } from '@/config/paths';
import { lastWorkingPath, useAuth } from '@/lib/auth';

/** Initials from first and last name, else from the e-mail's local part (spec 001 §2.5). */
export function initials(user: Pick<CurrentUserInfo, 'firstName' | 'lastName' | 'email'> | undefined): string {
  if (!user) return '?';
  const fromName = `${user.firstName?.trim()[0] ?? ''}${user.lastName?.trim()[0] ?? ''}`;
  if (fromName) return fromName.toUpperCase();
  const local = user.email.split('@')[0] ?? '';
  const parts = local.split(/[._-]+/).filter(Boolean);
  return (parts.length > 1 ? `${parts[0][0]}${parts[1][0]}` : local.slice(0, 2)).toUpperCase() || '?';
}

/** The tooltip: organisation code and name, or the e-mail. */
export function profileTooltip(user: CurrentUserInfo | undefined): string {
  if (!user) return '';
  return user.organisationCode && user.masterAccountName ? `${user.organisationCode} - ${user.masterAccountName}` : user.email;
}

/** The profile button and its menu (spec 001 §2.5). */
export function ProfileMenu() {
  const { user, signOut } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const [confirmLogout, setConfirmLogout] = useState(false);

  const logOut = async () => {
    lastWorkingPath.set(`${location.pathname}${location.search}`);
    setConfirmLogout(false);
    await signOut('Logged out by the user');
    navigate(paths.login, { replace: true });
  };

  return (
    <>
      <Menu.Root
        positioning={{ placement: 'bottom-end' }}
        onSelect={({ value }) => {
          if (value === 'logout') setConfirmLogout(true);
          else if (value === 'profile' && user) navigate(paths.userProfile(user.id));
        }}
      >
        <Tooltip.Root openDelay={300}>
          <Tooltip.Trigger asChild>
            <Menu.Trigger asChild>
              <Button variant="ghost" rounded="full" p="0" aria-label="Profile" data-testid="profile-button">
                <Avatar.Root size="sm" colorPalette="blue">
                  <Avatar.Fallback>{initials(user)}</Avatar.Fallback>
                </Avatar.Root>
              </Button>
            </Menu.Trigger>
          </Tooltip.Trigger>
          <Portal>
            <Tooltip.Positioner>
              <Tooltip.Content>{profileTooltip(user)}</Tooltip.Content>
            </Tooltip.Positioner>
          </Portal>
        </Tooltip.Root>
        <Portal>
          <Menu.Positioner>
            <Menu.Content minW="220px">
              <Menu.Item value="status" disabled>
                You're logged in.
              </Menu.Item>
              <Menu.Separator />
              <Menu.Item value="profile">Profile</Menu.Item>
              <Menu.Separator />
              <Menu.Item value="logout">Log Out</Menu.Item>
            </Menu.Content>
          </Menu.Positioner>
        </Portal>
      </Menu.Root>
      <ConfirmDialog open={confirmLogout} title="Log Out" message="Are you sure you want to log out?" onConfirm={logOut} onClose={() => setConfirmLogout(false)} />
    </>
  );
}
