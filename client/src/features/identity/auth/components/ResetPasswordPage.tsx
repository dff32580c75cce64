import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Card, Center, Field, Heading, Image, Input, VStack } from '@chakra-ui/react';
import { useNavigate, useSearchParams } from 'react-router';
import { LIMITS } from '@shared/limits';
import { breachedPasswordMessage, errorMessage } from '@/lib/api';
import { authApi } from '../api/auth-api';
import { MESSAGES, tokenFromQuery } from '../login-validation';
import { StepSubmit } from './StepSubmit';
import { toast } from './toast';

/** The new password twice, within the limit; checked when submitted, the message shown under the fields. */
const resetSchema = z
  .object({ password: z.string(), confirmPassword: z.string() })
  .superRefine(({ password, confirmPassword }, ctx) => {
    if (password !== confirmPassword)
      ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: MESSAGES.RESET_MISMATCH });
    else if (password.length > LIMITS.PASSWORD_MAX)
      ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: MESSAGES.NEW_PASSWORD_TOO_LONG });
  });
type ResetForm = z.infer<typeof resetSchema>;

/** Spec 000 §2 / 001 §2.17: the reset-password page, public and without the header. */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const token = tokenFromQuery(params);
  const form = useForm<ResetForm>({
    resolver: zodResolver(resetSchema),
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
    defaultValues: { password: '', confirmPassword: '' },
  });
  const error = token ? (form.formState.errors.confirmPassword?.message ?? null) : MESSAGES.RESET_TOKEN_MISSING;
  const password = useWatch({ control: form.control, name: 'password' });
  const breached = form.formState.errors.password?.message;
  const [busy, setBusy] = useState(false);

  async function reset({ password }: ResetForm) {
    if (!token) return;
    setBusy(true);
    try {
      await authApi.resetPassword(token, password);
      toast({ type: 'success', title: 'Your password has been reset.' });
      navigate('/', { replace: true });
    } catch (err) {
      const refused = breachedPasswordMessage(err);
      if (refused) {
        form.setError('password', { message: refused }, { shouldFocus: true });
        return;
      }
      toast(
        { type: 'error', title: errorMessage(err, 'Your authentication information is incorrect. Please try again.') },
        LIMITS.RESET_ERROR_TOAST_MS,
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <Center minH="100vh" p="4" bg="bg.subtle">
      <Card.Root width="450px" maxW="100%">
        <Card.Header>
          <VStack gap="2">
            <Image src="/logo.svg" alt="Tax Portal" boxSize="48px" />
            <Heading size="lg">Reset your password</Heading>
          </VStack>
        </Card.Header>
        <Card.Body>
          <form onSubmit={form.handleSubmit(reset)} noValidate>
            <VStack gap="4" align="stretch">
              <Field.Root invalid={!!breached}>
                <Field.Label>New password</Field.Label>
                <Input type="password" autoComplete="new-password" {...form.register('password')} disabled={!token} />
                <Field.ErrorText data-testid="new-password-error">{breached}</Field.ErrorText>
              </Field.Root>
              <Field.Root>
                <Field.Label>Confirm password</Field.Label>
                <Input
                  type="password"
                  autoComplete="new-password"
                  {...form.register('confirmPassword')}
                  disabled={!token}
                />
              </Field.Root>
              <StepSubmit
                error={error}
                busy={busy}
                disabled={!token || !password}
                label="Reset password"
                errorTestId="reset-error"
              />
            </VStack>
          </form>
        </Card.Body>
      </Card.Root>
    </Center>
  );
}
