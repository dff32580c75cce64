import { useId, useState } from 'react';
import { Avatar, Button, Menu, Portal, Tooltip } from '@chakra-ui/react';
import { useLocation, useNavigate } from 'react-router';
import type { CurrentUserInfo } from '@shared/api-types';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { paths } from '@/config/paths';
import { ContactDialog } from '@/features/portal/contact/components/ContactDialog';
import { FeedbackDialog } from '@/features/portal/feedback/components/FeedbackDialog';
import { MENU_TYPEAHEAD_OFF, TypeaheadMenuContent } from '@/components/ui/menu-typeahead';
import { useAuth } from '@/lib/auth';
import { lastWorkingPath } from '@/lib/auth-storage';

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
  return user.organisationCode && user.masterAccountName
    ? `${user.organisationCode} - ${user.masterAccountName}`
    : user.email;
}

type Dialogs = 'logout' | 'feedback' | 'contact' | 'anonymous-feedback' | null;

/**
 * The profile button and its menu (spec 001 §2.5). Logged in: 'You're logged in.', Profile, My Security, User Manual,
 * Give Feedback, Announcements, Contact Us, About, Log Out (confirmed; remembers the last working path).
 * Logged out (public pages such as the terms): 'You're logged out.', Give Feedback, Log In. Feedback of a
 * visitor who is not signed in goes through the Contact Us form, which needs no account.
 */
export function ProfileMenu() {
  const { user, isAuthenticated, signOut } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const [dialog, setDialog] = useState<Dialogs>(null);
  // The menu and the tooltip share the button: with one id for both, the menu finds its anchor (else it
  // opens at the top left) and the dialogs opened from it give focus back to the button.
  const triggerId = useId();
  const returnFocus = () => document.getElementById(triggerId);

  const logOut = async () => {
    lastWorkingPath.set(`${location.pathname}${location.search}`);
    setDialog(null);
    await signOut('Logged out by the user');
    navigate(paths.login, { replace: true });
  };

  const select = (value: string) => {
    switch (value) {
      case 'profile':
        if (user) navigate(paths.userProfile(user.id));
        break;
      case 'security':
        navigate(paths.mySecurity);
        break;
      case 'manual':
        navigate(paths.userManual);
        break;
      case 'announcements':
        navigate(paths.announcements);
        break;
      case 'about':
        navigate(paths.about);
        break;
      case 'login':
        navigate(paths.login);
        break;
      case 'feedback':
        setDialog(isAuthenticated ? 'feedback' : 'anonymous-feedback');
        break;
      case 'contact':
        setDialog('contact');
        break;
      case 'logout':
        setDialog('logout');
        break;
    }
  };

  return (
    <>
      <Menu.Root
        {...MENU_TYPEAHEAD_OFF}
        ids={{ trigger: triggerId }}
        positioning={{ placement: 'bottom-end' }}
        onSelect={({ value }) => select(value)}
      >
        <Tooltip.Root ids={{ trigger: triggerId }} openDelay={300} disabled={!isAuthenticated}>
          <Tooltip.Trigger asChild>
            <Menu.Trigger asChild>
              <Button
                variant="ghost"
                rounded="full"
                p="0"
                aria-label={`Profile ${initials(user)}`}
                data-testid="profile-button"
              >
                <Avatar.Root size="sm" colorPalette="blue">
                  <Avatar.Fallback>{initials(user)}</Avatar.Fallback>
                </Avatar.Root>
              </Button>
            </Menu.Trigger>
          </Tooltip.Trigger>
          <Portal>
            <Tooltip.Positioner>
              <Tooltip.Content data-testid="profile-tooltip">{profileTooltip(user)}</Tooltip.Content>
            </Tooltip.Positioner>
          </Portal>
        </Tooltip.Root>
        <Portal>
          <Menu.Positioner>
            <TypeaheadMenuContent minW="220px" data-testid="profile-menu">
              {isAuthenticated ? (
                <>
                  <Menu.Item value="status" disabled>
                    You're logged in.
                  </Menu.Item>
                  <Menu.Separator />
                  <Menu.Item value="profile">Profile</Menu.Item>
                  <Menu.Item value="security">My Security</Menu.Item>
                  <Menu.Item value="manual">User Manual</Menu.Item>
                  <Menu.Item value="feedback">Give Feedback</Menu.Item>
                  <Menu.Item value="announcements">Announcements</Menu.Item>
                  <Menu.Item value="contact">Contact Us</Menu.Item>
                  <Menu.Item value="about">About</Menu.Item>
                  <Menu.Separator />
                  <Menu.Item value="logout">Log Out</Menu.Item>
                </>
              ) : (
                <>
                  <Menu.Item value="status" disabled>
                    You're logged out.
                  </Menu.Item>
                  <Menu.Separator />
                  <Menu.Item value="feedback">Give Feedback</Menu.Item>
                  <Menu.Item value="login">Log In</Menu.Item>
                </>
              )}
            </TypeaheadMenuContent>
          </Menu.Positioner>
        </Portal>
      </Menu.Root>
      <ConfirmDialog
        open={dialog === 'logout'}
        title="Log Out"
        message="Are you sure you want to log out?"
        onConfirm={logOut}
        onClose={() => setDialog(null)}
        finalFocusEl={returnFocus}
      />
      <FeedbackDialog open={dialog === 'feedback'} onClose={() => setDialog(null)} finalFocusEl={returnFocus} />
      <ContactDialog
        open={dialog === 'contact' || dialog === 'anonymous-feedback'}
        initialSubject={dialog === 'anonymous-feedback' ? 'Feedback' : ''}
        onClose={() => setDialog(null)}
        finalFocusEl={returnFocus}
      />
    </>
  );
}
