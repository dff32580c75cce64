import { useState } from 'react';
import { Button, Card, Field, Heading, Input, InputGroup, Stack } from '@chakra-ui/react';
import { useMutation } from '@tanstack/react-query';
import { ORG_ADMIN_MESSAGES as M } from '@shared/organisation-admin';
import { toaster } from '@/components/ui/toaster';
import { errorMessage } from '@/lib/api';
import { organisationsApi, useSupportDomain } from '../api/organisations-api';
import { validateESupportName } from '../site-admin-form';

/** Spec 001 §2.13 (users/createESupport, E-Support only): the e-mail local part with the fixed domain addon. */
export function CreateESupportPage() {
  const domain = useSupportDomain();
  const [userName, setUserName] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const error = validateESupportName(userName);
  // The forbidden characters are reported as they are typed; 'required' once Confirm was pressed.
  const shown = error && (submitted || error === M.ESUPPORT_FORBIDDEN_CHARS || (userName !== '' && error === M.INVALID_EMAIL)) ? error : null;

  const create = useMutation({
    mutationFn: organisationsApi.createESupport,
    onSuccess: () => {
      toaster.create({ type: 'success', title: M.ESUPPORT_CREATED_TITLE, description: M.ESUPPORT_CREATED });
      setUserName('');
      setSubmitted(false);
    },
    onError: (e) => toaster.create({ type: 'error', title: errorMessage(e, M.ESUPPORT_FAILED) }),
  });

  function submit(e: React.FormEvent) {
    e.preventDefault();
    setSubmitted(true);
    if (!error) create.mutate(userName.trim());
  }

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
                <Input name="userName" autoComplete="off" value={userName} onChange={(e) => setUserName(e.target.value)} />
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
