import { Controller, type UseFormReturn } from 'react-hook-form';
import { z } from 'zod';
import { Badge, Field, Fieldset, Input, RadioGroup, Stack, Text, Textarea } from '@chakra-ui/react';
import {
  OIDC_CLIENT_MESSAGES as M,
  OIDC_CLIENT_NAME_MAX,
  OIDC_CLIENT_TYPES,
  type CreateOidcClientRequest,
  type OidcClientItem,
} from '@shared/identity/oidc-clients';
import { logoutUriError, redirectUrisError, uriLines } from '../redirect-uri-lines';
import { OIDC_CLIENTS_TEXTS as T } from '../oidc-clients-texts';

/**
 * The form of an application: its addresses one per line, checked by the provider's own rules before sending
 * (`allowPrivateNetworks`: the deployment's, from GET /api/app-info).
 */
export const applicationSchema = (allowPrivateNetworks: boolean) =>
  z
    .object({
      name: z.string(),
      type: z.enum(OIDC_CLIENT_TYPES),
      redirectUris: z.string(),
      postLogoutRedirectUris: z.string(),
      backchannelLogoutUri: z.string(),
    })
    .superRefine((v, ctx) => {
      const fail = (path: keyof typeof v, message: string | null) =>
        message && ctx.addIssue({ code: 'custom', path: [path], message });
      const name = v.name.trim();
      fail('name', !name ? M.NAME_REQUIRED : name.length > OIDC_CLIENT_NAME_MAX ? M.NAME_TOO_LONG : null);
      fail('redirectUris', redirectUrisError(v.redirectUris, v.type, true, allowPrivateNetworks));
      fail('postLogoutRedirectUris', redirectUrisError(v.postLogoutRedirectUris, v.type, false, allowPrivateNetworks));
      fail('backchannelLogoutUri', logoutUriError(v.backchannelLogoutUri, allowPrivateNetworks));
    });
export type ApplicationForm = z.infer<ReturnType<typeof applicationSchema>>;

export const blankApplication: ApplicationForm = {
  name: '',
  type: 'confidential',
  redirectUris: '',
  postLogoutRedirectUris: '',
  backchannelLogoutUri: '',
};

/** The form's values of a registered application, for editing it. */
export function applicationForm(c: OidcClientItem): ApplicationForm {
  return {
    name: c.name,
    type: c.type,
    redirectUris: c.redirectUris.join('\n'),
    postLogoutRedirectUris: c.postLogoutRedirectUris.join('\n'),
    backchannelLogoutUri: c.backchannelLogoutUri ?? '',
  };
}

/** What the API takes from the form (the type is chosen once, at registration). */
export function applicationFields(v: ApplicationForm): Omit<CreateOidcClientRequest, 'type'> {
  return {
    name: v.name.trim(),
    redirectUris: uriLines(v.redirectUris),
    postLogoutRedirectUris: uriLines(v.postLogoutRedirectUris),
    backchannelLogoutUri: v.backchannelLogoutUri.trim() || null,
  };
}

/** The fields of an application, for registering one and for editing one (whose type is shown, not changed). */
export function ApplicationFields({ form, editing }: { form: UseFormReturn<ApplicationForm>; editing: boolean }) {
  const errors = form.formState.errors;
  return (
    <Stack gap="3">
      <Field.Root invalid={!!errors.name} required maxW="md">
        <Field.Label>
          {T.NAME}
          <Field.RequiredIndicator />
        </Field.Label>
        <Input autoComplete="off" {...form.register('name')} />
        <Field.ErrorText>{errors.name?.message}</Field.ErrorText>
      </Field.Root>
      {editing ? (
        <Text>
          {T.TYPE}: <Badge variant="outline">{T.TYPE_NAMES[form.getValues('type')]}</Badge>
        </Text>
      ) : (
        <Controller
          control={form.control}
          name="type"
          render={({ field }) => (
            <Fieldset.Root>
              <Fieldset.Legend>{T.TYPE}</Fieldset.Legend>
              <RadioGroup.Root
                name={field.name}
                aria-label={T.TYPE}
                value={field.value}
                colorPalette="blue"
                onValueChange={(e) => e.value && field.onChange(e.value)}
              >
                <Stack gap="1">
                  {OIDC_CLIENT_TYPES.map((type) => (
                    <RadioGroup.Item key={type} value={type}>
                      <RadioGroup.ItemHiddenInput />
                      <RadioGroup.ItemIndicator />
                      <RadioGroup.ItemText>{T.TYPES[type]}</RadioGroup.ItemText>
                    </RadioGroup.Item>
                  ))}
                </Stack>
              </RadioGroup.Root>
            </Fieldset.Root>
          )}
        />
      )}
      <Field.Root invalid={!!errors.redirectUris} required>
        <Field.Label>
          {T.REDIRECT_URIS}
          <Field.RequiredIndicator />
        </Field.Label>
        <Textarea
          rows={3}
          fontFamily="mono"
          fontSize="sm"
          autoComplete="off"
          placeholder="https://app.example.com/callback"
          {...form.register('redirectUris')}
        />
        <Field.HelperText>{T.REDIRECT_URIS_HELP}</Field.HelperText>
        <Field.ErrorText>{errors.redirectUris?.message}</Field.ErrorText>
      </Field.Root>
      <Field.Root invalid={!!errors.postLogoutRedirectUris}>
        <Field.Label>{T.POST_LOGOUT_URIS}</Field.Label>
        <Textarea
          rows={2}
          fontFamily="mono"
          fontSize="sm"
          autoComplete="off"
          {...form.register('postLogoutRedirectUris')}
        />
        <Field.HelperText>{T.POST_LOGOUT_URIS_HELP}</Field.HelperText>
        <Field.ErrorText>{errors.postLogoutRedirectUris?.message}</Field.ErrorText>
      </Field.Root>
      <Field.Root invalid={!!errors.backchannelLogoutUri}>
        <Field.Label>{T.LOGOUT_URI}</Field.Label>
        <Input type="url" fontFamily="mono" autoComplete="off" {...form.register('backchannelLogoutUri')} />
        <Field.HelperText>{T.LOGOUT_URI_HELP}</Field.HelperText>
        <Field.ErrorText>{errors.backchannelLogoutUri?.message}</Field.ErrorText>
      </Field.Root>
    </Stack>
  );
}
