import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Button, Field, Input, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { DIRECTORY_OWNED_FIELDS, SCIM_MESSAGES } from '@shared/identity/scim';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toaster } from '@/components/ui/toaster';
import { errorMessage } from '@/lib/api';
import { ProfileFields, usersApi } from '@/features/identity/users';
import { MessageDialog } from '@/components/ui/message-dialog';
import { PROFILE_TEXTS } from '../profile-texts';
import { queryKeys } from '@/lib/query-keys';
import { ProfileCard } from './ProfileCard';

const FIELDS: Array<{ name: keyof ProfileFields; label: string; autoComplete: string }> = [
  { name: 'firstName', label: 'First name', autoComplete: 'given-name' },
  { name: 'lastName', label: 'Last name', autoComplete: 'family-name' },
  { name: 'jobTitle', label: 'Job title', autoComplete: 'organization-title' },
  { name: 'department', label: 'Department', autoComplete: 'off' },
  { name: 'location', label: 'Location', autoComplete: 'address-level2' },
];

/** Spec 000 §5: the details are trimmed before saving; their lengths are the server's to check (its message shows in the dialog). */
const profileSchema = z.object({
  firstName: z.string().trim(),
  lastName: z.string().trim(),
  jobTitle: z.string().trim(),
  department: z.string().trim(),
  location: z.string().trim(),
});

/** 'About you'. */
export function AboutYouForm({
  userId,
  initial,
  canSave,
  directoryManaged = false,
}: {
  userId: number;
  initial: ProfileFields;
  canSave: boolean;
  /** The organisation's directory owns the name, job title and department: shown read-only, with a note. */
  directoryManaged?: boolean;
}) {
  const queryClient = useQueryClient();
  const form = useForm<ProfileFields>({ resolver: zodResolver(profileSchema), defaultValues: initial });
  const [failure, setFailure] = useState<string | null>(null);

  const save = useMutation({
    mutationFn: (fields: ProfileFields) => usersApi.updateUser(fields),
    onSuccess: async (_r, fields) => {
      form.reset(fields);
      toaster.create({ type: 'success', title: PROFILE_TEXTS.SAVED });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.users.byId(userId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.currentUser }),
      ]);
    },
    onError: (error) => setFailure(errorMessage(error, PROFILE_TEXTS.FAILED)),
  });

  return (
    <ProfileCard
      title="About you"
      testId="about-you"
      dialogs={
        <MessageDialog open={failure !== null} title="Error" message={failure} onClose={() => setFailure(null)} />
      }
    >
      <form noValidate onSubmit={form.handleSubmit((fields) => save.mutate(fields))}>
        <Stack gap="4">
          {directoryManaged && (
            <Text fontSize="sm" color="fg.muted" data-testid="directory-managed-note">
              {SCIM_MESSAGES.DIRECTORY_MANAGED_NOTE}
            </Text>
          )}
          <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
            {FIELDS.map((f) => {
              const owned = directoryManaged && (DIRECTORY_OWNED_FIELDS as readonly string[]).includes(f.name);
              return (
                <Field.Root key={f.name} readOnly={owned}>
                  <Field.Label>{f.label}</Field.Label>
                  <Input type="text" autoComplete={f.autoComplete} {...form.register(f.name)} />
                </Field.Root>
              );
            })}
          </SimpleGrid>
          {canSave && (
            <Button type="submit" colorPalette="blue" alignSelf="start" loading={save.isPending}>
              Update profile
            </Button>
          )}
        </Stack>
      </form>
    </ProfileCard>
  );
}
