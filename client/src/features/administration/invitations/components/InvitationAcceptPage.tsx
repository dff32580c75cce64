import { useState, type ReactNode } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import {
  Alert,
  Button,
  Card,
  Center,
  Checkbox,
  Field,
  Heading,
  Image,
  Input,
  Link,
  Text,
  VStack,
} from '@chakra-ui/react';
import { useNavigate, useSearchParams } from 'react-router';
import { AUTH_MESSAGES } from '@shared/messages';
import { LIMITS } from '@shared/limits';
import { NAME_MAX, newPasswordError, profileFieldTooLong, VALIDATION_MESSAGES as V } from '@shared/validation';
import { paths } from '@/config/paths';
import { breachedPasswordMessage, errorMessage } from '@/lib/api';
import { useAuth } from '@/lib/auth';
import { formatDateTime } from '@/lib/formats';
import { invitationsApi, useInvitationPreview } from '../api/invitations-api';
import { INVITATION_TEXTS as T } from '../invitations-texts';

const name = (label: string) =>
  z.string().trim().min(1, T.NAME_REQUIRED(label)).max(NAME_MAX, profileFieldTooLong(label));

const acceptSchema = z
  .object({
    firstName: name(T.FIRST_NAME),
    lastName: name(T.LAST_NAME),
    password: z.string(),
    confirmPassword: z.string(),
    acceptToS: z.boolean(),
  })
  .superRefine((v, ctx) => {
    const problem = newPasswordError(v.password);
    if (problem) ctx.addIssue({ code: 'custom', path: ['password'], message: problem });
    else if (v.password !== v.confirmPassword)
      ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: V.RESET_MISMATCH });
    if (!v.acceptToS) ctx.addIssue({ code: 'custom', path: ['acceptToS'], message: AUTH_MESSAGES.TERMS_NOT_ACCEPTED });
  });
type AcceptForm = z.infer<typeof acceptSchema>;

function Frame({ children, title }: { children: ReactNode; title: string }) {
  return (
    <Center minH="100vh" p="4" bg="bg.subtle" as="main">
      <Card.Root width="480px" maxW="100%">
        <Card.Header>
          <VStack gap="2">
            <Image src="/logo.svg" alt="Tax Portal" boxSize="48px" />
            <Heading as="h1" size="lg" textAlign="center">
              {title}
            </Heading>
          </VStack>
        </Card.Header>
        <Card.Body>{children}</Card.Body>
      </Card.Root>
    </Center>
  );
}

/** The people's side of an invitation (route /invite?token=…): who invited, to what, then an account or the SSO. */
export function InvitationAcceptPage() {
  const [params] = useSearchParams();
  const all = params.getAll('token');
  const token = all.length === 1 && all[0].trim() ? all[0] : null;
  const preview = useInvitationPreview(token);

  if (!token || preview.isError)
    return (
      <Frame title={T.PAGE_TITLE}>
        <VStack align="stretch" gap="4">
          <Alert.Root status="warning" data-testid="invitation-invalid">
            <Alert.Indicator />
            <Alert.Description>{token ? errorMessage(preview.error, T.NO_TOKEN) : T.NO_TOKEN}</Alert.Description>
          </Alert.Root>
          <Link href={paths.login}>{T.GO_TO_SIGN_IN}</Link>
        </VStack>
      </Frame>
    );
  if (!preview.data)
    return (
      <Frame title={T.PAGE_TITLE}>
        <Text>{T.LOADING}</Text>
      </Frame>
    );
  const p = preview.data;
  return (
    <Frame title={T.joinTitle(p.organisationName)}>
      <VStack align="stretch" gap="4">
        <Text data-testid="invitation-summary">
          {T.invitedBy(p.inviterName, p.email)} {T.validUntil(formatDateTime(p.expiresAt))}
        </Text>
        {p.sso ? <ContinueWithProvider email={p.email} /> : <AcceptForm token={token} />}
      </VStack>
    </Frame>
  );
}

function ContinueWithProvider({ email }: { email: string }) {
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  async function go() {
    setBusy(true);
    try {
      const found = await invitationsApi.discover(email);
      if (found.url) window.location.assign(found.url);
      else setFailed(T.FAILED);
    } catch (e) {
      setFailed(errorMessage(e, T.FAILED));
    } finally {
      setBusy(false);
    }
  }
  return (
    <VStack align="stretch" gap="3">
      <Text>{T.SSO_INTRO}</Text>
      {failed && <Text color="fg.error">{failed}</Text>}
      <Button colorPalette="blue" loading={busy} onClick={() => void go()} data-testid="invitation-sso">
        {T.SSO_BUTTON}
      </Button>
    </VStack>
  );
}

function AcceptForm({ token }: { token: string }) {
  const navigate = useNavigate();
  const { signIn } = useAuth();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<AcceptForm>({
    resolver: zodResolver(acceptSchema),
    mode: 'onSubmit',
    defaultValues: { firstName: '', lastName: '', password: '', confirmPassword: '', acceptToS: false },
  });
  const errors = form.formState.errors;
  const accepted = useWatch({ control: form.control, name: 'acceptToS' });

  const submit = form.handleSubmit(async ({ firstName, lastName, password, acceptToS }) => {
    setFailure(null);
    try {
      const { accessToken } = await invitationsApi.accept({ token, firstName, lastName, password, acceptToS });
      signIn(accessToken);
      // The shell takes over: an account whose MFA is enforced sets it up first.
      navigate(paths.home, { replace: true });
    } catch (e) {
      const breached = breachedPasswordMessage(e);
      if (breached) form.setError('password', { message: breached }, { shouldFocus: true });
      else setFailure(errorMessage(e, T.FAILED));
    }
  });

  const text = (field: 'firstName' | 'lastName', label: string, autoComplete: string) => (
    <Field.Root invalid={!!errors[field]} required>
      <Field.Label>
        {label}
        <Field.RequiredIndicator />
      </Field.Label>
      <Input type="text" autoComplete={autoComplete} maxLength={NAME_MAX} {...form.register(field)} />
      <Field.ErrorText>{errors[field]?.message}</Field.ErrorText>
    </Field.Root>
  );

  return (
    <form onSubmit={submit} noValidate data-testid="invitation-form">
      <VStack align="stretch" gap="4">
        {text('firstName', T.FIRST_NAME, 'given-name')}
        {text('lastName', T.LAST_NAME, 'family-name')}
        <Field.Root invalid={!!errors.password} required>
          <Field.Label>
            {T.PASSWORD}
            <Field.RequiredIndicator />
          </Field.Label>
          <Input
            type="password"
            autoComplete="new-password"
            maxLength={LIMITS.PASSWORD_MAX}
            {...form.register('password')}
          />
          <Field.HelperText>{V.NEW_PASSWORD_TOO_SHORT}</Field.HelperText>
          <Field.ErrorText data-testid="invitation-password-error">{errors.password?.message}</Field.ErrorText>
        </Field.Root>
        <Field.Root invalid={!!errors.confirmPassword} required>
          <Field.Label>
            {T.CONFIRM_PASSWORD}
            <Field.RequiredIndicator />
          </Field.Label>
          <Input type="password" autoComplete="new-password" {...form.register('confirmPassword')} />
          <Field.ErrorText>{errors.confirmPassword?.message}</Field.ErrorText>
        </Field.Root>
        <Field.Root invalid={!!errors.acceptToS}>
          <Checkbox.Root
            checked={accepted}
            onCheckedChange={(c) => form.setValue('acceptToS', c.checked === true)}
            data-testid="invitation-terms"
          >
            <Checkbox.HiddenInput />
            <Checkbox.Control data-testid="invitation-terms-box" />
            <Checkbox.Label>
              I agree to the{' '}
              <Link href={paths.terms} target="_blank" rel="noopener" colorPalette="blue">
                Terms and Conditions
              </Link>
            </Checkbox.Label>
          </Checkbox.Root>
          <Field.ErrorText>{errors.acceptToS?.message}</Field.ErrorText>
        </Field.Root>
        {failure && (
          <Text color="fg.error" role="alert" data-testid="invitation-error">
            {failure}
          </Text>
        )}
        <Button type="submit" colorPalette="blue" loading={form.formState.isSubmitting}>
          {T.ACCEPT}
        </Button>
      </VStack>
    </form>
  );
}
