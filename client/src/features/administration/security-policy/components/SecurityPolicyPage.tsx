import { useEffect } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Alert, Box, Button, chakra, Checkbox, Field, Input, NativeSelect, Stack, Textarea } from '@chakra-ui/react';
import { CAPABILITY_ROLES } from '@shared/roles';
import {
  DEFAULT_SECURITY_POLICY,
  SECURITY_POLICY_LIMITS as L,
  type SecurityPolicy,
  type SecurityPolicyChange,
} from '@shared/administration/security-policy';
import { SUPPORT_ACCESS_POLICIES } from '@shared/portal/support-access';
import { OrganisationPage } from '@/components/OrganisationPage';
import { toaster } from '@/components/ui/toaster';
import { errorMessage } from '@/lib/api';
import { useAuth } from '@/lib/auth';
import { useHasRole } from '@/lib/authorization';
import { ruled } from '@/lib/forms';
import { useChosenOrganisation } from '@/lib/organisation-scope';
import { useSaveSecurityPolicy, useSecurityPolicy } from '../api/security-policy-api';
import { POLICY_TEXTS as T } from '../security-policy-texts';

/** A whole number within [min, max], or (optional) empty. */
const wholeNumber = (min: number, max: number, optional: boolean) =>
  ruled((v) => {
    const text = v.trim();
    if (!text) return optional ? null : T.wholeNumber(min, max, optional);
    const n = Number(text);
    return /^\d+$/.test(text) && n >= min && n <= max ? null : T.wholeNumber(min, max, optional);
  });

const schema = z.object({
  mfaRequired: z.boolean(),
  ssoRequired: z.boolean(),
  allowedIpRanges: ruled((v) => (rangesOf(v).length > L.IP_RANGES_MAX ? T.TOO_MANY_RANGES : null)),
  sessionIdleMinutes: wholeNumber(L.IDLE_MINUTES_MIN, L.IDLE_MINUTES_MAX, true),
  sessionMaxHours: wholeNumber(L.MAX_HOURS_MIN, L.MAX_HOURS_MAX, true),
  passwordMinLength: wholeNumber(L.PASSWORD_MIN_LENGTH_MIN, L.PASSWORD_MIN_LENGTH_MAX, false),
  selfDeletion: z.boolean(),
  auditRetentionDays: wholeNumber(L.AUDIT_RETENTION_DAYS_MIN, L.AUDIT_RETENTION_DAYS_MAX, false),
  supportAccess: z.enum(SUPPORT_ACCESS_POLICIES),
});
type PolicyForm = z.infer<typeof schema>;

function rangesOf(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((r) => r.trim())
    .filter(Boolean);
}

function toForm(p: SecurityPolicy): PolicyForm {
  return {
    mfaRequired: p.mfaRequired,
    ssoRequired: p.ssoRequired,
    allowedIpRanges: p.allowedIpRanges.join('\n'),
    sessionIdleMinutes: p.sessionIdleMinutes === null ? '' : String(p.sessionIdleMinutes),
    sessionMaxHours: p.sessionMaxHours === null ? '' : String(p.sessionMaxHours),
    passwordMinLength: String(p.passwordMinLength),
    selfDeletion: p.selfDeletion,
    auditRetentionDays: String(p.auditRetentionDays),
    supportAccess: p.supportAccess,
  };
}

/** The fields that differ from the saved policy: the PUT changes only those. */
function changeOf(form: PolicyForm, saved: SecurityPolicy): SecurityPolicyChange {
  const next: SecurityPolicy = {
    mfaRequired: form.mfaRequired,
    ssoRequired: form.ssoRequired,
    allowedIpRanges: rangesOf(form.allowedIpRanges),
    sessionIdleMinutes: form.sessionIdleMinutes.trim() ? Number(form.sessionIdleMinutes) : null,
    sessionMaxHours: form.sessionMaxHours.trim() ? Number(form.sessionMaxHours) : null,
    passwordMinLength: Number(form.passwordMinLength),
    selfDeletion: form.selfDeletion,
    auditRetentionDays: Number(form.auditRetentionDays),
    supportAccess: form.supportAccess,
  };
  const change: Record<string, unknown> = {};
  for (const key of Object.keys(next) as Array<keyof SecurityPolicy>)
    if (JSON.stringify(next[key]) !== JSON.stringify(saved[key])) change[key] = next[key];
  return change as SecurityPolicyChange;
}

/**
 * Route users/security-policy: the organisation's security policy, one form. Site admins change it (a sensitive
 * call: the step-up dialog asks them to confirm it is them), administrators read it; E-Support picks any
 * organisation (?organisationId=).
 */
export function SecurityPolicyPage() {
  const { user } = useAuth();
  const canEdit = useHasRole(CAPABILITY_ROLES.SECURITY_POLICY_MANAGE);
  const organisationId = useChosenOrganisation().organisationId ?? user?.organisationId ?? null;
  // Whether support may act as its members is the organisation's own decision (E-Support cannot change it).
  const ownOrganisation = organisationId !== null && organisationId === user?.organisationId;
  const policy = useSecurityPolicy(organisationId);
  const save = useSaveSecurityPolicy();

  const form = useForm<PolicyForm>({
    resolver: zodResolver(schema),
    defaultValues: toForm(DEFAULT_SECURITY_POLICY),
  });
  const { errors } = form.formState;
  const mfaRequired = useWatch({ control: form.control, name: 'mfaRequired' });
  const ssoRequired = useWatch({ control: form.control, name: 'ssoRequired' });
  const selfDeletion = useWatch({ control: form.control, name: 'selfDeletion' });
  useEffect(() => {
    if (policy.data) form.reset(toForm(policy.data));
  }, [policy.data, form]);

  const submit = form.handleSubmit((values) => {
    if (!policy.data || organisationId === null) return;
    const change = changeOf(values, policy.data);
    if (Object.keys(change).length === 0) {
      toaster.create({ type: 'info', title: T.NOTHING_CHANGED });
      return;
    }
    save.mutate(
      { organisationId, change },
      {
        onSuccess: () => toaster.create({ type: 'success', title: T.SAVED }),
        onError: (e) => toaster.create({ type: 'error', title: errorMessage(e, T.SAVE_FAILED) }),
      },
    );
  });

  return (
    <OrganisationPage name="security-policy" texts={T} picker readOnly={!canEdit} gap="5" maxW="3xl">
      {policy.isError && (
        <Alert.Root status="error">
          <Alert.Indicator />
          <Alert.Title>{errorMessage(policy.error, T.LOAD_FAILED)}</Alert.Title>
        </Alert.Root>
      )}
      {policy.data && (
        <form noValidate onSubmit={submit} aria-label={T.TITLE}>
          <fieldset disabled={!canEdit || save.isPending}>
            <chakra.legend srOnly>{T.RULES}</chakra.legend>
            <Stack gap="5">
              <Field.Root>
                <Checkbox.Root
                  checked={mfaRequired}
                  onCheckedChange={(e) => form.setValue('mfaRequired', !!e.checked, { shouldDirty: true })}
                >
                  <Checkbox.HiddenInput />
                  <Checkbox.Control />
                  <Checkbox.Label>{T.MFA_LABEL}</Checkbox.Label>
                </Checkbox.Root>
                <Field.HelperText>{T.MFA_HELP}</Field.HelperText>
              </Field.Root>
              <Field.Root>
                <Checkbox.Root
                  checked={ssoRequired}
                  onCheckedChange={(e) => form.setValue('ssoRequired', !!e.checked, { shouldDirty: true })}
                >
                  <Checkbox.HiddenInput />
                  <Checkbox.Control />
                  <Checkbox.Label>{T.SSO_LABEL}</Checkbox.Label>
                </Checkbox.Root>
                <Field.HelperText>{T.SSO_HELP}</Field.HelperText>
              </Field.Root>
              <Field.Root invalid={!!errors.allowedIpRanges}>
                <Field.Label>{T.RANGES_LABEL}</Field.Label>
                <Textarea rows={4} fontFamily="mono" {...form.register('allowedIpRanges')} />
                <Field.HelperText>{T.RANGES_HELP}</Field.HelperText>
                <Field.ErrorText>{errors.allowedIpRanges?.message}</Field.ErrorText>
              </Field.Root>
              <Field.Root invalid={!!errors.sessionIdleMinutes} maxW="sm">
                <Field.Label>{T.IDLE_LABEL}</Field.Label>
                <Input inputMode="numeric" {...form.register('sessionIdleMinutes')} />
                <Field.HelperText>{T.IDLE_HELP}</Field.HelperText>
                <Field.ErrorText>{errors.sessionIdleMinutes?.message}</Field.ErrorText>
              </Field.Root>
              <Field.Root invalid={!!errors.sessionMaxHours} maxW="sm">
                <Field.Label>{T.MAX_LABEL}</Field.Label>
                <Input inputMode="numeric" {...form.register('sessionMaxHours')} />
                <Field.HelperText>{T.MAX_HELP}</Field.HelperText>
                <Field.ErrorText>{errors.sessionMaxHours?.message}</Field.ErrorText>
              </Field.Root>
              <Field.Root invalid={!!errors.passwordMinLength} required maxW="sm">
                <Field.Label>
                  {T.LENGTH_LABEL}
                  <Field.RequiredIndicator />
                </Field.Label>
                <Input inputMode="numeric" {...form.register('passwordMinLength')} />
                <Field.HelperText>{T.LENGTH_HELP}</Field.HelperText>
                <Field.ErrorText>{errors.passwordMinLength?.message}</Field.ErrorText>
              </Field.Root>
              <Field.Root>
                <Checkbox.Root
                  checked={selfDeletion}
                  onCheckedChange={(e) => form.setValue('selfDeletion', !!e.checked, { shouldDirty: true })}
                >
                  <Checkbox.HiddenInput />
                  <Checkbox.Control />
                  <Checkbox.Label>{T.SELF_DELETION_LABEL}</Checkbox.Label>
                </Checkbox.Root>
                <Field.HelperText>{T.SELF_DELETION_HELP}</Field.HelperText>
              </Field.Root>
              <Field.Root invalid={!!errors.auditRetentionDays} required maxW="sm">
                <Field.Label>
                  {T.RETENTION_LABEL}
                  <Field.RequiredIndicator />
                </Field.Label>
                <Input inputMode="numeric" {...form.register('auditRetentionDays')} />
                <Field.HelperText>{T.RETENTION_HELP}</Field.HelperText>
                <Field.ErrorText>{errors.auditRetentionDays?.message}</Field.ErrorText>
              </Field.Root>
              <Field.Root maxW="md" disabled={!ownOrganisation}>
                <Field.Label>{T.SUPPORT_ACCESS_LABEL}</Field.Label>
                <NativeSelect.Root>
                  <NativeSelect.Field data-testid="security-policy-support-access" {...form.register('supportAccess')}>
                    {SUPPORT_ACCESS_POLICIES.map((p) => (
                      <option key={p} value={p}>
                        {T.SUPPORT_ACCESS_CHOICES[p]}
                      </option>
                    ))}
                  </NativeSelect.Field>
                  <NativeSelect.Indicator />
                </NativeSelect.Root>
                <Field.HelperText>
                  {ownOrganisation ? T.SUPPORT_ACCESS_HELP : T.SUPPORT_ACCESS_OWN_ONLY}
                </Field.HelperText>
              </Field.Root>
              {canEdit && (
                <Box>
                  <Button type="submit" colorPalette="blue" loading={save.isPending}>
                    {T.SAVE}
                  </Button>
                </Box>
              )}
            </Stack>
          </fieldset>
        </form>
      )}
    </OrganisationPage>
  );
}
