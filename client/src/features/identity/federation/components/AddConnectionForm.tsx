import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Box, Button, Checkbox, Field, Heading, Input, NativeSelect, HStack, Stack, Textarea } from '@chakra-ui/react';
import { BASE_ROLE } from '@shared/roles';
import { SSO_DEFAULT_ROLES, SSO_LIMITS } from '@shared/identity/sso';
import { RadioChoice } from '@/components/ui/radio-choice';
import { RoleOptions } from '@/components/ui/role-options';
import { toaster } from '@/components/ui/toaster';
import { errorMessage } from '@/lib/api';
import { type NewConnection, ssoApi, useSsoMutation } from '../api/sso-api';
import { SSO_PAGE_TEXTS as T } from '../federation-texts';

const required = (message: string, max: number) => z.string().trim().min(1, message).max(max, message);

/** One form for both protocols: each checks only its own fields. */
const connectionSchema = z
  .object({
    protocol: z.enum(['oidc', 'saml']),
    name: required(T.NAME_REQUIRED, SSO_LIMITS.NAME_MAX),
    issuer: z.string(),
    clientId: z.string(),
    clientSecret: z.string(),
    metadataXml: z.string().max(SSO_LIMITS.METADATA_MAX, T.METADATA_TOO_LONG),
    jitProvisioning: z.boolean(),
    defaultRoleId: z.string(),
  })
  .superRefine((v, ctx) => {
    const need = (path: keyof typeof v, ok: boolean, message: string) =>
      ok || ctx.addIssue({ code: 'custom', path: [path], message });
    if (v.protocol === 'oidc') {
      need('issuer', /^https?:\/\/\S+$/.test(v.issuer.trim()), T.ISSUER_REQUIRED);
      need('clientId', v.clientId.trim() !== '', T.CLIENT_ID_REQUIRED);
      need('clientSecret', v.clientSecret !== '', T.CLIENT_SECRET_REQUIRED);
    } else need('metadataXml', v.metadataXml.trim() !== '', T.METADATA_REQUIRED);
  });
type ConnectionValues = z.infer<typeof connectionSchema>;

const EMPTY: ConnectionValues = {
  protocol: 'oidc',
  name: '',
  issuer: '',
  clientId: '',
  clientSecret: '',
  metadataXml: '',
  jitProvisioning: false,
  defaultRoleId: String(BASE_ROLE),
};

function payload(v: ConnectionValues): NewConnection {
  const common = { name: v.name.trim(), jitProvisioning: v.jitProvisioning, defaultRoleId: Number(v.defaultRoleId) };
  return v.protocol === 'oidc'
    ? {
        ...common,
        protocol: 'oidc',
        issuer: v.issuer.trim(),
        clientId: v.clientId.trim(),
        clientSecret: v.clientSecret,
      }
    : { ...common, protocol: 'saml', metadataXml: v.metadataXml.trim() };
}

/** Add a connection: OpenID Connect (issuer, client id and secret) or SAML 2.0 (the IdP's metadata XML). */
export function AddConnectionForm({ organisationId, onDone }: { organisationId: number | null; onDone: () => void }) {
  const form = useForm<ConnectionValues>({
    resolver: zodResolver(connectionSchema),
    mode: 'onTouched',
    defaultValues: EMPTY,
  });
  const protocol = useWatch({ control: form.control, name: 'protocol' });
  const add = useSsoMutation((c: NewConnection) => ssoApi.addConnection(organisationId, c));
  const errors = form.formState.errors;

  const field = (name: 'name' | 'issuer' | 'clientId' | 'clientSecret', label: string, props: object = {}) => (
    <Field.Root invalid={!!errors[name]} required>
      <Field.Label>{label}</Field.Label>
      <Input {...props} {...form.register(name)} />
      {errors[name] && <Field.ErrorText>{errors[name]?.message}</Field.ErrorText>}
    </Field.Root>
  );

  return (
    <Box borderWidth="1px" rounded="md" p="4" data-testid="add-connection">
      <form
        noValidate
        onSubmit={form.handleSubmit((values) =>
          add.mutate(payload(values), {
            onSuccess: (c) => {
              toaster.create({ type: 'success', title: T.CONNECTION_ADDED(c.name) });
              form.reset(EMPTY);
              onDone();
            },
            onError: (e) => toaster.create({ type: 'error', title: errorMessage(e, T.CHANGE_FAILED) }),
          }),
        )}
      >
        <Stack gap="3">
          <Heading as="h3" size="sm">
            Add a connection
          </Heading>
          <Controller
            control={form.control}
            name="protocol"
            render={({ field: f }) => (
              <RadioChoice
                value={f.value}
                onChange={f.onChange}
                aria-label="Protocol"
                options={[
                  { value: 'oidc', label: 'OpenID Connect' },
                  { value: 'saml', label: 'SAML 2.0' },
                ]}
              />
            )}
          />
          {field('name', 'Name', { maxLength: SSO_LIMITS.NAME_MAX, placeholder: 'Contoso Entra ID' })}
          {protocol === 'oidc' ? (
            <>
              {field('issuer', 'Issuer URL', {
                maxLength: SSO_LIMITS.ISSUER_MAX,
                placeholder: 'https://login.example.com',
              })}
              {field('clientId', 'Client ID', { maxLength: SSO_LIMITS.CLIENT_ID_MAX, autoComplete: 'off' })}
              {field('clientSecret', 'Client secret', {
                type: 'password',
                maxLength: SSO_LIMITS.CLIENT_SECRET_MAX,
                autoComplete: 'new-password',
              })}
            </>
          ) : (
            <Field.Root invalid={!!errors.metadataXml} required>
              <Field.Label>Identity provider metadata (XML)</Field.Label>
              <Textarea rows={6} fontFamily="mono" fontSize="xs" {...form.register('metadataXml')} />
              <Field.HelperText>
                Paste it, or{' '}
                <input
                  type="file"
                  accept=".xml,application/xml,text/xml"
                  aria-label="Load the metadata from a file"
                  onChange={async (e) => {
                    const file = e.target.files?.[0];
                    if (file) form.setValue('metadataXml', await file.text(), { shouldValidate: true });
                  }}
                />
              </Field.HelperText>
              {errors.metadataXml && <Field.ErrorText>{errors.metadataXml.message}</Field.ErrorText>}
            </Field.Root>
          )}
          <Controller
            control={form.control}
            name="jitProvisioning"
            render={({ field: f }) => (
              <Checkbox.Root checked={f.value} onCheckedChange={(e) => f.onChange(!!e.checked)}>
                <Checkbox.HiddenInput />
                <Checkbox.Control />
                <Checkbox.Label>Create accounts on first sign-in (just-in-time)</Checkbox.Label>
              </Checkbox.Root>
            )}
          />
          <Field.Root maxW="xs">
            <Field.Label>Role of new accounts</Field.Label>
            <NativeSelect.Root>
              <NativeSelect.Field {...form.register('defaultRoleId')}>
                <RoleOptions roles={SSO_DEFAULT_ROLES} />
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </Field.Root>
          <HStack gap="2">
            <Button type="submit" colorPalette="blue" loading={add.isPending}>
              Add connection
            </Button>
            <Button variant="ghost" onClick={onDone}>
              Cancel
            </Button>
          </HStack>
        </Stack>
      </form>
    </Box>
  );
}
