import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Button, Card, Field, Heading, Input, InputGroup, Stack } from '@chakra-ui/react';
import { useMutation } from '@tanstack/react-query';
import { ORG_ADMIN_MESSAGES as M } from '@shared/administration/organisation-admin';
import { toaster } from '@/components/ui/toaster';
import { errorMessage } from '@/lib/api';
import { ruled } from '@/lib/forms';
import { organisationsApi, useSupportDomain } from '../api/organisations-api';
import { validateESupportName } from '../site-admin-form';

const eSupportSchema = z.object({ userName: ruled(validateESupportName) });
type ESupportForm = z.infer<typeof eSupportSchema>;

/** Spec 001 §2.13 (users/createESupport, E-Support only): the e-mail local part with the fixed domain addon. */
export function CreateESupportPage() {
  const domain = useSupportDomain();
  const form = useForm<ESupportForm>({
    resolver: zodResolver(eSupportSchema),
    mode: 'onChange',
    defaultValues: { userName: '' },
  });
  const error = form.formState.errors.userName?.message;
  // The forbidden characters and a space are reported as they are typed; 'required' once Confirm was pressed.
  const shown = error && (form.formState.isSubmitted || error !== M.ESUPPORT_EMAIL_REQUIRED) ? error : null;

  const create = useMutation({
    mutationFn: organisationsApi.createESupport,
    onSuccess: () => {
      toaster.create({ type: 'success', title: M.ESUPPORT_CREATED_TITLE, description: M.ESUPPORT_CREATED });
      form.reset();
    },
    onError: (e) => toaster.create({ type: 'error', title: errorMessage(e, M.ESUPPORT_FAILED) }),
  });

  const submit = form.handleSubmit(({ userName }) => create.mutate(userName.trim()));

  return (
    <Card.Root maxW="lg" data-testid="create-esupport-page">
      <Card.Header>
        <Heading as="h1" size="lg">
          Create E-Support Account
        </Heading>
      </Card.Header>
      <Card.Body>
        <form onSubmit={submit} noValidate>
          <Stack gap="4">
            <Field.Root invalid={!!shown} required>
              <Field.Label>
                Email
                <Field.RequiredIndicator />
              </Field.Label>
              <InputGroup endAddon={`@${domain.data?.domain ?? ''}`}>
                <Input autoComplete="off" {...form.register('userName')} />
              </InputGroup>
              <Field.ErrorText>{shown}</Field.ErrorText>
            </Field.Root>
            <Button type="submit" colorPalette="blue" alignSelf="start" loading={create.isPending}>
              Confirm
            </Button>
          </Stack>
        </form>
      </Card.Body>
    </Card.Root>
  );
}
