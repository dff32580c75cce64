import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Field,
  Heading,
  Input,
  NativeSelect,
  Spinner,
  Stack,
  Text,
} from '@chakra-ui/react';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { ASSIGNABLE_BY_ADMINS, BASE_ROLE, Role } from '@shared/roles';
import { useAuth } from '@/lib/auth';
import { paths } from '@/config/paths';
import { toaster } from '@/components/ui/toaster';
import { errorMessage } from '@/lib/api';
import { requiredText } from '@/lib/forms';
import { roleIdsToSave, USER_TEXTS } from '../account';
import { NewUserPayload, usersApi, useOrganisationInfo, useReloadUsers } from '../api/users-api';
import { MessageDialog } from '@/components/ui/message-dialog';
import { RoleOptions } from '@/components/ui/role-options';

/** Spec 000 §9: new users have MFA enforced and no SSO unless chosen. */
export const NEW_USER_DEFAULTS = { isMFAEnforced: true, isSSO: false } as const;

export function activeUsersNote(allowed: number): string {
  return `Your organisation is allowed to create unlimited users but only ${allowed} active user(s).`;
}

export function buildNewUser(form: {
  email: string;
  role: Role;
  isAdministrator: boolean;
  isSSO: boolean;
}): NewUserPayload {
  return {
    userEmail: form.email.trim(),
    isMFAEnforced: NEW_USER_DEFAULTS.isMFAEnforced,
    userRoleIds: roleIdsToSave(form.role, form.isAdministrator),
    isSSO: form.isSSO,
  };
}

/** The page checks only that an e-mail was typed (on Confirm); the server applies the rest of the shared e-mail rule. */
const newUserSchema = z.object({
  email: requiredText(USER_TEXTS.EMAIL_REQUIRED),
  role: z.number(),
  isAdministrator: z.boolean(),
  isSSO: z.boolean(),
});
type NewUserForm = { email: string; role: Role; isAdministrator: boolean; isSSO: boolean };

/** Spec 000 §2 'Create user page' (users/new). */
export function CreateUserPage() {
  const navigate = useNavigate();
  const org = useOrganisationInfo();
  // The administrator flag and SSO are the site admin's toggles (spec 000 §6).
  const isSiteAdmin = useAuth().roles.includes(Role.SITE_ADMIN);
  const reload = useReloadUsers();
  const form = useForm<NewUserForm>({
    resolver: zodResolver(newUserSchema),
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
    defaultValues: { email: '', role: BASE_ROLE, isAdministrator: false, isSSO: NEW_USER_DEFAULTS.isSSO },
  });
  const role = useWatch({ control: form.control, name: 'role' });
  const emailError = form.formState.errors.email?.message;
  const [failure, setFailure] = useState<string | null>(null);

  const add = useMutation({
    mutationFn: usersApi.add,
    onSuccess: async () => {
      toaster.create({ type: 'success', title: USER_TEXTS.USER_ADDED });
      await reload();
      navigate(paths.users);
    },
    onError: (error) => setFailure(errorMessage(error, 'Something went wrong')),
  });

  const submit = form.handleSubmit((values) => add.mutate(buildNewUser(values)));

  if (org.isLoading) return <Spinner />;
  if (org.isError || !org.data)
    return (
      <Alert.Root status="error" data-testid="org-load-error">
        <Alert.Indicator />
        <Alert.Title>{USER_TEXTS.ORG_LOAD_FAILED}</Alert.Title>
      </Alert.Root>
    );

  const ssoAvailable = org.data.isSSOEnabled && isSiteAdmin;
  return (
    <Card.Root maxW="lg" data-testid="create-user-page">
      <Card.Header>
        <Heading as="h1" size="lg">
          Create User
        </Heading>
      </Card.Header>
      <Card.Body>
        <form onSubmit={submit} noValidate>
          <Stack gap="4">
            {org.data.users.length > 0 && (
              <Alert.Root status="info" size="sm" data-testid="active-users-note">
                <Alert.Indicator />
                <Alert.Title>{activeUsersNote(org.data.allowedUsersNumber)}</Alert.Title>
              </Alert.Root>
            )}
            <Field.Root invalid={!!emailError}>
              <Field.Label>Email</Field.Label>
              <Input type="email" autoComplete="off" {...form.register('email')} />
              <Field.ErrorText>{emailError}</Field.ErrorText>
            </Field.Root>
            <Field.Root>
              <Field.Label>Role</Field.Label>
              <NativeSelect.Root size="sm">
                <NativeSelect.Field
                  aria-label="Role"
                  {...form.register('role', {
                    setValueAs: (v) => Number(v) as Role,
                    // The administrator flag goes with the base role only.
                    onChange: (e) => Number(e.target.value) !== BASE_ROLE && form.setValue('isAdministrator', false),
                  })}
                >
                  <RoleOptions roles={ASSIGNABLE_BY_ADMINS} />
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
            </Field.Root>
            {isSiteAdmin && role === BASE_ROLE && (
              <Controller
                control={form.control}
                name="isAdministrator"
                render={({ field }) => (
                  <Checkbox.Root
                    checked={field.value}
                    onCheckedChange={(e) => field.onChange(e.checked === true)}
                    colorPalette="blue"
                  >
                    <Checkbox.HiddenInput />
                    <Checkbox.Control />
                    <Checkbox.Label>Grant Administrator Privileges</Checkbox.Label>
                  </Checkbox.Root>
                )}
              />
            )}
            <Controller
              control={form.control}
              name="isSSO"
              render={({ field }) => (
                <Checkbox.Root
                  checked={field.value}
                  disabled={!ssoAvailable}
                  onCheckedChange={(e) => field.onChange(e.checked === true)}
                  colorPalette="blue"
                >
                  <Checkbox.HiddenInput />
                  <Checkbox.Control />
                  <Checkbox.Label>Single Sign-On</Checkbox.Label>
                </Checkbox.Root>
              )}
            />
            <Text fontSize="sm" color="fg.muted">
              The new user receives a temporary password by e-mail, must change it at first sign-in, and must set up
              MFA.
            </Text>
            <Button type="submit" colorPalette="blue" loading={add.isPending} alignSelf="start">
              Confirm
            </Button>
          </Stack>
        </form>
      </Card.Body>
      <MessageDialog
        open={failure !== null}
        title="The user could not be added"
        message={failure}
        onClose={() => setFailure(null)}
      />
    </Card.Root>
  );
}
