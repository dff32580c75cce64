import { useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Fieldset,
  Field,
  Heading,
  Input,
  RadioGroup,
  SimpleGrid,
  Stack,
  HStack,
} from '@chakra-ui/react';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { LIMITS } from '@shared/limits';
import {
  ACCOUNT_TYPES,
  AccountTypeName,
  ORG_ADMIN_MESSAGES as M,
  SITE_ADMIN_FIRST_SIGN_IN,
  SITE_ADMIN_MINIMUMS,
} from '@shared/administration/organisation-admin';
import { toaster } from '@/components/ui/toaster';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api';
import { organisationsApi } from '../api/organisations-api';
import {
  canConfirm,
  INITIAL_SITE_ADMIN_FORM,
  SiteAdminForm,
  toSiteAdminPayload,
  validateSiteAdmin,
  withAccountType,
} from '../site-admin-form';

type Key = keyof SiteAdminForm;

function ReadOnlyCheck({ label }: { label: string }) {
  return (
    <Checkbox.Root checked readOnly disabled colorPalette="blue">
      <Checkbox.HiddenInput />
      <Checkbox.Control />
      <Checkbox.Label>{label}</Checkbox.Label>
    </Checkbox.Root>
  );
}

/**
 * Spec 001 §2.12 (users/createSiteAdmin, E-Support only): a new organisation and its site admin, with
 * the defaults of §9, the rules of §4/§5 and the toasts of §8.
 */
export function CreateSiteAdminPage() {
  const navigate = useNavigate();
  const [form, setForm] = useState<SiteAdminForm>(INITIAL_SITE_ADMIN_FORM);
  const [touched, setTouched] = useState<Partial<Record<Key, boolean>>>({});
  const errors = validateSiteAdmin(form);
  const set = (key: Key, value: string | boolean) => setForm((f) => ({ ...f, [key]: value }));
  const touch = (key: Key) => () => setTouched((t) => ({ ...t, [key]: true }));
  const shown = (key: Key) => (touched[key] ? errors[key] : undefined);

  const create = useMutation({
    mutationFn: organisationsApi.createSiteAdmin,
    onSuccess: () => {
      toaster.create({ type: 'success', title: M.SITE_ADMIN_CREATED });
      navigate(paths.users);
    },
    onError: (error) => toaster.create({ type: 'error', title: errorMessage(error, 'The user could not be created.') }),
  });

  function submit(e: React.FormEvent) {
    e.preventDefault();
    setTouched({
      name: true,
      code: true,
      email: true,
      allowedUsersNumber: true,
      maxConcurrentUsers: true,
      maxPortfolios: true,
      ssoLogoutUrl: true,
    });
    if (canConfirm(form)) create.mutate(toSiteAdminPayload(form));
  }

  const text = (key: Key, label: string, props: Record<string, unknown> = {}) => (
    <Field.Root invalid={!!shown(key)} required={key !== 'ssoLogoutUrl'}>
      <Field.Label>
        {label}
        {key !== 'ssoLogoutUrl' && <Field.RequiredIndicator />}
      </Field.Label>
      <Input
        name={key}
        type="text"
        value={form[key] as string}
        onChange={(e) => set(key, e.target.value)}
        onBlur={touch(key)}
        {...props}
      />
      <Field.ErrorText>{shown(key)}</Field.ErrorText>
    </Field.Root>
  );

  return (
    <Card.Root maxW="3xl" data-testid="create-site-admin-page">
      <Card.Header>
        <Heading as="h1" size="lg">
          Create Site Admin
        </Heading>
      </Card.Header>
      <Card.Body>
        <form onSubmit={submit} noValidate>
          <Stack gap="5">
            <Alert.Root status="info" data-testid="site-admin-first-sign-in">
              <Alert.Indicator />
              <Alert.Description>{SITE_ADMIN_FIRST_SIGN_IN.PAGE_NOTE}</Alert.Description>
            </Alert.Root>
            <Fieldset.Root>
              <Fieldset.Legend>Account type</Fieldset.Legend>
              <RadioGroup.Root
                name="accountType"
                value={form.accountType}
                onValueChange={(d) => d.value && setForm((f) => withAccountType(f, d.value as AccountTypeName))}
                colorPalette="blue"
              >
                <HStack gap="6">
                  {ACCOUNT_TYPES.map((type) => (
                    <RadioGroup.Item key={type} value={type}>
                      <RadioGroup.ItemHiddenInput />
                      <RadioGroup.ItemIndicator />
                      <RadioGroup.ItemText>{type}</RadioGroup.ItemText>
                    </RadioGroup.Item>
                  ))}
                </HStack>
              </RadioGroup.Root>
            </Fieldset.Root>

            <Checkbox.Root
              checked={form.isSSO}
              onCheckedChange={(d) => set('isSSO', d.checked === true)}
              colorPalette="blue"
            >
              <Checkbox.HiddenInput />
              <Checkbox.Control />
              <Checkbox.Label>SSO</Checkbox.Label>
            </Checkbox.Root>

            <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
              {text('name', 'Name', {
                maxLength: 200,
                disabled: form.accountType === 'Individual',
                autoComplete: 'organization',
              })}
              {text('code', 'Code', { maxLength: LIMITS.ORGANISATION_CODE_MAX, autoComplete: 'off' })}
              {text('email', 'Email', { type: 'email', maxLength: LIMITS.EMAIL_MAX, autoComplete: 'off' })}
              {form.isSSO &&
                text('ssoLogoutUrl', 'SSO Logout URL', { type: 'url', maxLength: 500, placeholder: 'https://' })}
            </SimpleGrid>

            <Fieldset.Root>
              <Fieldset.Legend>Roles</Fieldset.Legend>
              <ReadOnlyCheck label="Site Admin" />
            </Fieldset.Root>

            <Fieldset.Root>
              <Fieldset.Legend>Applications</Fieldset.Legend>
              <HStack gap="6">
                <Checkbox.Root
                  checked={form.taxManagerApp}
                  onCheckedChange={(d) => set('taxManagerApp', d.checked === true)}
                  colorPalette="blue"
                >
                  <Checkbox.HiddenInput />
                  <Checkbox.Control />
                  <Checkbox.Label>Tax Manager</Checkbox.Label>
                </Checkbox.Root>
                <ReadOnlyCheck label="Corporate Actions Viewer" />
              </HStack>
            </Fieldset.Root>

            <SimpleGrid columns={{ base: 1, md: 3 }} gap="4">
              {text('allowedUsersNumber', 'Allowed users', {
                type: 'number',
                min: SITE_ADMIN_MINIMUMS.allowedUsersNumber,
                step: 1,
              })}
              {text('maxConcurrentUsers', 'Concurrent users', {
                type: 'number',
                min: SITE_ADMIN_MINIMUMS.maxConcurrentUsers,
                step: 1,
              })}
              {text('maxPortfolios', 'Max portfolios', {
                type: 'number',
                min: SITE_ADMIN_MINIMUMS.maxPortfolios,
                step: 1,
              })}
            </SimpleGrid>

            <HStack gap="3">
              <Button type="submit" colorPalette="blue" disabled={!canConfirm(form)} loading={create.isPending}>
                Confirm
              </Button>
              <Button variant="outline" onClick={() => navigate(paths.users)}>
                Cancel
              </Button>
            </HStack>
          </Stack>
        </form>
      </Card.Body>
    </Card.Root>
  );
}
