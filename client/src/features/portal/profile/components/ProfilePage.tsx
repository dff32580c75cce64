import { Alert, Heading, Spinner, Stack } from '@chakra-ui/react';
import { Navigate, useLocation, useParams } from 'react-router';
import { paths } from '@/config/paths';
import { useAuth } from '@/lib/auth';
import { useSingleUser } from '@/features/identity/users';
import { MFA_TEXTS, MfaPanel } from '@/features/identity/mfa';
import { PasskeysPanel } from '@/features/identity/passkeys';
import { mfaPending as isMfaPending } from '@shared/identity/mfa-rules';
import { PROFILE_TEXTS } from '../profile-texts';
import { AboutYouForm } from './AboutYouForm';
import { ChangePasswordForm } from './ChangePasswordForm';

/** Spec 000 §2 'Profile page' (users/profile/{id}): one's own profile, password and MFA. */
export function ProfilePage() {
  const { id = '' } = useParams();
  const location = useLocation();
  const { user } = useAuth();
  const own = user ? String(user.id) : null;
  const profile = useSingleUser(own ?? id);

  if (!user) return <Spinner />;
  // Everyone has a profile page: their own (another id leads to one's own).
  if (own !== id) return <Navigate to={`${paths.userProfile(user.id)}${location.search}`} replace />;

  const mfaPending = isMfaPending(user);

  return (
    <Stack gap="5" maxW="4xl" data-testid="profile-page">
      <Heading as="h1" size="xl">
        {PROFILE_TEXTS.TITLE}
      </Heading>
      {mfaPending && (
        <Alert.Root status="info" data-testid="mfa-enforced-banner">
          <Alert.Indicator />
          <Alert.Title>{MFA_TEXTS.ENFORCED_BANNER}</Alert.Title>
        </Alert.Root>
      )}
      {profile.isLoading && <Spinner />}
      {profile.isError && (
        <Alert.Root status="error" data-testid="profile-load-error">
          <Alert.Indicator />
          <Alert.Title>{PROFILE_TEXTS.LOAD_FAILED}</Alert.Title>
        </Alert.Root>
      )}
      {profile.data && (
        <AboutYouForm
          key={profile.dataUpdatedAt}
          userId={user.id}
          canSave={!mfaPending}
          directoryManaged={!!profile.data.isDirectoryManaged}
          initial={{
            firstName: profile.data.firstName ?? '',
            lastName: profile.data.lastName ?? '',
            jobTitle: profile.data.jobTitle ?? '',
            department: profile.data.department ?? '',
            location: profile.data.location ?? '',
          }}
        />
      )}
      <ChangePasswordForm />
      <MfaPanel isMFAEnabled={profile.data?.isMFAEnabled ?? user.isMFAEnabled} />
      <PasskeysPanel />
    </Stack>
  );
}
