import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Button, Card, Field, Heading, Input, SimpleGrid, Spinner, Stack } from '@chakra-ui/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ContactProfile } from '@shared/api-types';
import { LIMITS } from '@shared/limits';
import { ORG_ADMIN_MESSAGES as M } from '@shared/administration/organisation-admin';
import { toaster } from '@/components/ui/toaster';
import { errorMessage } from '@/lib/api';
import { requiredText } from '@/lib/forms';
import { queryKeys } from '@/lib/query-keys';
import { billingApi, ContactKind, EMPTY_CONTACT, useContact } from '../api/billing-api';

const FIELDS: Array<{ key: Exclude<keyof ContactProfile, 'id'>; label: string; type?: string; max: number }> = [
  { key: 'fullName', label: 'Full name', max: 100 },
  { key: 'jobTitle', label: 'Job title', max: 100 },
  { key: 'department', label: 'Department', max: 100 },
  { key: 'basedIn', label: 'Based in', max: 100 },
  { key: 'email', label: 'Email', type: 'email', max: LIMITS.EMAIL_MAX },
  { key: 'mobile', label: 'Mobile', type: 'tel', max: 40 },
];

/** Spec 001 §5: the full name is required; the other fields are limited by their inputs and checked by the server. */
const contactSchema = z.object({
  id: z.number().nullable(),
  fullName: requiredText(M.FULL_NAME_REQUIRED),
  jobTitle: z.string(),
  department: z.string(),
  basedIn: z.string(),
  email: z.string(),
  mobile: z.string(),
});

/**
 * Spec 001 §2.11: one contact form (primary or billing). Save is disabled while the full name is blank;
 * a load failure gives an empty form; a save error is logged and reported with a toast.
 */
export function ContactForm({ kind, title }: { kind: ContactKind; title: string }) {
  const query = useContact(kind);
  const queryClient = useQueryClient();
  const form = useForm<ContactProfile>({
    resolver: zodResolver(contactSchema),
    mode: 'onTouched',
    defaultValues: EMPTY_CONTACT,
  });
  const { reset } = form;

  useEffect(() => {
    if (query.data) reset({ ...EMPTY_CONTACT, ...query.data });
    else if (query.isError) reset(EMPTY_CONTACT);
  }, [query.data, query.isError, reset]);

  const save = useMutation({
    mutationFn: (contact: ContactProfile) => billingApi.save(kind, contact),
    onSuccess: (saved) => {
      form.reset(saved);
      queryClient.setQueryData(queryKeys.billingContact(kind), saved);
      toaster.create({ type: 'success', title: M.CONTACT_SAVED });
    },
    onError: (error) => {
      console.error(`Saving the ${kind} contact failed`, error);
      toaster.create({ type: 'error', title: errorMessage(error, 'Your changes could not be saved.') });
    },
  });

  const nameError = form.formState.errors.fullName?.message;
  return (
    <Card.Root data-testid={`${kind}-contact-form`}>
      <Card.Header>
        <Heading as="h2" size="md">
          {title}
        </Heading>
      </Card.Header>
      <Card.Body>
        {query.isLoading ? (
          <Spinner />
        ) : (
          <form noValidate onSubmit={form.handleSubmit((contact) => save.mutate(contact))}>
            <Stack gap="4">
              <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
                {FIELDS.map((f) => (
                  <Field.Root key={f.key} required={f.key === 'fullName'} invalid={f.key === 'fullName' && !!nameError}>
                    <Field.Label>
                      {f.label}
                      {f.key === 'fullName' && <Field.RequiredIndicator />}
                    </Field.Label>
                    <Input type={f.type ?? 'text'} maxLength={f.max} {...form.register(f.key)} />
                    {f.key === 'fullName' && <Field.ErrorText>{nameError}</Field.ErrorText>}
                  </Field.Root>
                ))}
              </SimpleGrid>
              <Button
                type="submit"
                colorPalette="blue"
                alignSelf="start"
                disabled={!form.formState.isValid}
                loading={save.isPending}
              >
                Save
              </Button>
            </Stack>
          </form>
        )}
      </Card.Body>
    </Card.Root>
  );
}
