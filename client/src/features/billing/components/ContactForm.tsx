import { useEffect, useState } from 'react';
import { Button, Card, Field, Heading, Input, SimpleGrid, Spinner, Stack } from '@chakra-ui/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ContactProfile } from '@shared/api-types';
import { LIMITS } from '@shared/limits';
import { ORG_ADMIN_MESSAGES as M } from '@shared/organisation-admin';
import { toaster } from '@/components/ui/toaster';
import { errorMessage } from '@/lib/api';
import { billingApi, ContactKind, EMPTY_CONTACT, useContact } from '../api/billing-api';

const FIELDS: Array<{ key: Exclude<keyof ContactProfile, 'id'>; label: string; type?: string; max: number }> = [
  { key: 'fullName', label: 'Full name', max: 100 },
  { key: 'jobTitle', label: 'Job title', max: 100 },
  { key: 'department', label: 'Department', max: 100 },
  { key: 'basedIn', label: 'Based in', max: 100 },
  { key: 'email', label: 'Email', type: 'email', max: LIMITS.EMAIL_MAX },
  { key: 'mobile', label: 'Mobile', type: 'tel', max: 40 },
];

/**
 * Spec 001 §2.11: one contact form (primary or billing). Save is disabled while the full name is blank;
 * a load failure gives an empty form; a save error is logged and reported with a toast.
 */
export function ContactForm({ kind, title }: { kind: ContactKind; title: string }) {
  const query = useContact(kind);
  const queryClient = useQueryClient();
  const [form, setForm] = useState<ContactProfile>(EMPTY_CONTACT);
  const [nameTouched, setNameTouched] = useState(false);

  useEffect(() => {
    if (query.data) setForm({ ...EMPTY_CONTACT, ...query.data });
    else if (query.isError) setForm(EMPTY_CONTACT);
  }, [query.data, query.isError]);

  const save = useMutation({
    mutationFn: (contact: ContactProfile) => billingApi.save(kind, contact),
    onSuccess: (saved) => {
      setForm(saved);
      queryClient.setQueryData(['contact', kind], saved);
      toaster.create({ type: 'success', title: M.CONTACT_SAVED });
    },
    onError: (error) => {
      console.error(`Saving the ${kind} contact failed`, error);
      toaster.create({ type: 'error', title: errorMessage(error, 'Your changes could not be saved.') });
    },
  });

  const blankName = form.fullName.trim() === '';
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
          <form
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              if (!blankName) save.mutate(form);
            }}
          >
            <Stack gap="4">
              <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
                {FIELDS.map((f) => (
                  <Field.Root key={f.key} required={f.key === 'fullName'} invalid={f.key === 'fullName' && blankName && nameTouched}>
                    <Field.Label>
                      {f.label}
                      {f.key === 'fullName' && <Field.RequiredIndicator />}
                    </Field.Label>
                    <Input
                      name={f.key}
                      type={f.type ?? 'text'}
                      maxLength={f.max}
                      value={form[f.key]}
                      onChange={(e) => setForm((prev) => ({ ...prev, [f.key]: e.target.value }))}
                      onBlur={() => f.key === 'fullName' && setNameTouched(true)}
                    />
                    {f.key === 'fullName' && <Field.ErrorText>{M.FULL_NAME_REQUIRED}</Field.ErrorText>}
                  </Field.Root>
                ))}
              </SimpleGrid>
              <Button type="submit" colorPalette="blue" alignSelf="start" disabled={blankName} loading={save.isPending}>
                Save
              </Button>
            </Stack>
          </form>
        )}
      </Card.Body>
    </Card.Root>
  );
}
