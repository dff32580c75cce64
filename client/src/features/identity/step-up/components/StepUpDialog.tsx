import { useEffect, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Field, Input, RadioGroup, Stack, Text } from '@chakra-ui/react';
import { ERROR_CODES, SECURITY_MESSAGES } from '@shared/messages';
import { RECOVERY_CODE_INPUT, RECOVERY_MESSAGES } from '@shared/identity/mfa-recovery';
import { LIMITS } from '@shared/limits';
import { mfaCodeError, VALIDATION_MESSAGES } from '@shared/validation';
import type { CurrentUserInfo } from '@shared/api-types';
import { AppDialog, DialogActions } from '@/components/ui/app-dialog';
import { toaster } from '@/components/ui/toaster';
import { ApiError, errorMessage, setStepUpHandler } from '@/lib/api';
import { useAuth } from '@/lib/auth';
import { ruled } from '@/lib/forms';
import { stepUpApi } from '../api/step-up-api';
import { STEP_UP_TEXTS as T } from '../step-up-texts';

type Factor = 'password' | 'mfaToken' | 'recoveryCode' | 'passkey' | 'sso';

/**
 * The proofs this account can give, best first: what the dialog offers. `ssoRequired`: the organisation requires its
 * single sign-on of this account (the server refused its password or passkey with SSO_REQUIRED), so the provider
 * takes their place.
 */
export function factorsOf(user: CurrentUserInfo | undefined, ssoRequired = false): Factor[] {
  if (!user) return [];
  const factors: Factor[] = [];
  if (user.hasPasskey && !ssoRequired) factors.push('passkey');
  if (user.isMFAEnabled) factors.push('mfaToken');
  if (user.isSSO || ssoRequired) factors.push('sso');
  else factors.push('password');
  if (user.isMFAEnabled) factors.push('recoveryCode');
  return factors;
}

const schema = z.discriminatedUnion('factor', [
  z.object({
    factor: z.literal('password'),
    secret: ruled((v) =>
      v === '' ? T.PASSWORD_REQUIRED : v.length > LIMITS.PASSWORD_MAX ? VALIDATION_MESSAGES.PASSWORD_TOO_LONG : null,
    ),
  }),
  z.object({ factor: z.literal('mfaToken'), secret: ruled(mfaCodeError) }),
  z.object({
    factor: z.literal('recoveryCode'),
    secret: ruled((v) => (RECOVERY_CODE_INPUT.test(v) ? null : RECOVERY_MESSAGES.RECOVERY_CODE_FORMAT)),
  }),
  z.object({ factor: z.literal('passkey'), secret: z.string() }),
  z.object({ factor: z.literal('sso'), secret: z.string() }),
]);
type StepUpForm = z.infer<typeof schema>;

/**
 * 'Confirm it's you' (docs/product-rules.md §7): opened by the request layer whenever a call answers STEP_UP_REQUIRED; offers the
 * proofs this account has, sends one to POST /auth/step-up, and lets the request layer retry the call once. An SSO
 * account goes to its identity provider and comes back here; the call is then made again by the person.
 */
export function StepUpDialog() {
  const { user } = useAuth();
  useStepUpReturn();
  const [ssoRequired, setSsoRequired] = useState(false);
  const factors = factorsOf(user, ssoRequired);
  const [failure, setFailure] = useState<string | null>(null);
  // The question being asked: how to answer the request layer. Open while there is one.
  const [pending, setPending] = useState<((confirmed: boolean) => void) | null>(null);
  const form = useForm<StepUpForm>({
    resolver: zodResolver(schema),
    mode: 'onSubmit',
    defaultValues: { factor: 'password', secret: '' },
  });
  const factor = useWatch({ control: form.control, name: 'factor' });
  const firstFactor = factors[0] ?? 'password';

  useEffect(() => {
    setStepUpHandler(() => new Promise<boolean>((resolve) => setPending(() => resolve)));
    return () => setStepUpHandler(null);
  }, []);
  useEffect(() => {
    if (!pending) return;
    form.reset({ factor: firstFactor, secret: '' });
  }, [pending, firstFactor, form]);
  // Unmounted while asking (the person signed out): the call gets its refusal instead of waiting for ever.
  useEffect(() => (pending ? () => pending(false) : undefined), [pending]);

  const finish = (confirmed: boolean) => {
    pending?.(confirmed);
    setPending(null);
    setFailure(null);
  };

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      if (values.factor === 'sso') {
        const here = `${window.location.pathname}${window.location.search}`;
        window.location.assign((await stepUpApi.ssoUrl(here)).url);
        return;
      }
      if (values.factor === 'passkey') await stepUpApi.confirmWithPasskey();
      else await stepUpApi.confirm({ [values.factor]: values.secret.trim() });
      finish(true);
    } catch (e) {
      if (e instanceof ApiError && e.code === ERROR_CODES.SSO_REQUIRED) {
        // The organisation requires its provider: offer it in place of the password and passkeys.
        setSsoRequired(true);
        form.reset({ factor: 'sso', secret: '' });
        setFailure(errorMessage(e, T.FAILED));
        return;
      }
      setFailure(errorMessage(e, T.FAILED));
      form.setFocus('secret');
    }
  });

  const fieldError = form.formState.errors.secret?.message ?? failure;
  const needsSecret = factor === 'password' || factor === 'mfaToken' || factor === 'recoveryCode';

  return (
    <AppDialog
      open={pending !== null}
      onClose={() => finish(false)}
      title={T.TITLE}
      testId="step-up-dialog"
      onSubmit={submit}
      noValidate
      closeButton
      initialFocusEl={() => document.querySelector<HTMLElement>('[data-testid="step-up-dialog"] input[name="secret"]')}
      footer={
        <DialogActions
          onCancel={() => finish(false)}
          confirmLabel={factor === 'sso' ? T.CONTINUE_SSO : factor === 'passkey' ? T.USE_PASSKEY : T.CONFIRM}
          submit
          loading={form.formState.isSubmitting}
        />
      }
    >
      <Stack gap="4">
        <Text>{SECURITY_MESSAGES.STEP_UP_REQUIRED}</Text>
        {factors.length > 1 && (
          <RadioGroup.Root
            name="factor"
            value={factor}
            onValueChange={(d) => {
              if (!d.value) return;
              form.setValue('factor', d.value as Factor);
              form.setValue('secret', '');
              form.clearErrors();
              setFailure(null);
            }}
            colorPalette="blue"
            aria-label={T.HOW}
          >
            <Stack gap="2">
              {factors.map((f) => (
                <RadioGroup.Item key={f} value={f}>
                  <RadioGroup.ItemHiddenInput />
                  <RadioGroup.ItemIndicator />
                  <RadioGroup.ItemText>{T.FACTORS[f]}</RadioGroup.ItemText>
                </RadioGroup.Item>
              ))}
            </Stack>
          </RadioGroup.Root>
        )}
        {needsSecret ? (
          <Field.Root invalid={!!fieldError}>
            <Field.Label>{T.LABELS[factor]}</Field.Label>
            <Input
              type={factor === 'password' ? 'password' : 'text'}
              autoComplete={factor === 'password' ? 'current-password' : 'one-time-code'}
              inputMode={factor === 'mfaToken' ? 'numeric' : undefined}
              {...form.register('secret')}
            />
            <Field.ErrorText data-testid="step-up-error">{fieldError}</Field.ErrorText>
          </Field.Root>
        ) : (
          <>
            <Text color="fg.muted">{factor === 'sso' ? T.SSO_HELP : T.PASSKEY_HELP}</Text>
            {failure && (
              <Text color="fg.error" role="alert" data-testid="step-up-error">
                {failure}
              </Text>
            )}
          </>
        )}
      </Stack>
    </AppDialog>
  );
}

/**
 * Back from a corporate step-up (`?stepUp=done` or `?stepUpError=…` on the page it left): the call is repeated by the
 * person, so the page says what happened, once, and the marker leaves the address bar.
 */
function useStepUpReturn(): void {
  useEffect(() => {
    const url = new URL(window.location.href);
    const done = url.searchParams.get('stepUp') === 'done';
    const error = url.searchParams.get('stepUpError');
    if (!done && !error) return;
    toaster.create(done ? { type: 'success', title: T.SSO_DONE } : { type: 'error', title: error! });
    url.searchParams.delete('stepUp');
    url.searchParams.delete('stepUpError');
    window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
  }, []);
}
