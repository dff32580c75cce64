import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import {
  Alert,
  Badge,
  Box,
  Button,
  Card,
  Field,
  Heading,
  HStack,
  Link,
  NativeSelect,
  SimpleGrid,
  Spinner,
  Stack,
  Switch,
  Text,
} from '@chakra-ui/react';
import { BASE_ROLE } from '@shared/roles';
import { SSO_DEFAULT_ROLES } from '@shared/identity/sso';
import { RoleOptions } from '@/components/ui/role-options';
import { toaster } from '@/components/ui/toaster';
import { errorMessage } from '@/lib/api';
import { type ConnectionChange, ssoApi, type SsoConnectionItem, useConnections, useSsoMutation } from '../api/sso-api';
import { SSO_PAGE_TEXTS as T } from '../federation-texts';
import { AddConnectionForm } from './AddConnectionForm';
import { CopyField } from './CopyField';
import { RemoveDialog } from './RemoveDialog';

/** Connections: each identity provider of the organisation, its URLs and switches; add and remove for editors. */
export function ConnectionsSection({ organisationId, canEdit }: { organisationId: number | null; canEdit: boolean }) {
  const connections = useConnections(organisationId);
  const [adding, setAdding] = useState(false);
  return (
    <Card.Root data-testid="sso-connections">
      <Card.Header>
        <HStack justify="space-between" wrap="wrap">
          <Heading as="h2" size="md">
            Connections
          </Heading>
          {canEdit && !adding && (
            <Button size="sm" colorPalette="blue" onClick={() => setAdding(true)}>
              Add connection
            </Button>
          )}
        </HStack>
        <Text color="fg.muted" fontSize="sm">
          {T.CONNECTIONS_INTRO}
        </Text>
        {canEdit && (
          <Text color="fg.muted" fontSize="sm">
            {T.TEST_INTRO}
          </Text>
        )}
      </Card.Header>
      <Card.Body>
        <Stack gap="4">
          {adding && <AddConnectionForm organisationId={organisationId} onDone={() => setAdding(false)} />}
          {connections.isLoading && <Spinner aria-label="Loading connections" />}
          {connections.isError && (
            <Alert.Root status="error">
              <Alert.Indicator />
              <Alert.Title>{errorMessage(connections.error, T.LOAD_FAILED)}</Alert.Title>
            </Alert.Root>
          )}
          {connections.data?.length === 0 && <Text data-testid="no-connections">{T.NO_CONNECTIONS}</Text>}
          {connections.data?.map((c) => (
            <ConnectionRow key={c.id} connection={c} canEdit={canEdit} />
          ))}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}

function ConnectionRow({ connection: c, canEdit }: { connection: SsoConnectionItem; canEdit: boolean }) {
  const [confirmRemove, setConfirmRemove] = useState(false);
  const change = useSsoMutation((patch: ConnectionChange) => ssoApi.changeConnection(c.id, patch));
  const remove = useSsoMutation(() => ssoApi.removeConnection(c.id));
  // The round trip leaves the page: the provider sends the browser back to it with the result.
  const test = useMutation({
    mutationFn: () => ssoApi.testConnection(c.id),
    onSuccess: ({ url }) => window.location.assign(url),
    onError: (e) => toaster.create({ type: 'error', title: errorMessage(e, T.TEST_START_FAILED) }),
  });
  const save = (patch: ConnectionChange) =>
    change.mutate(patch, {
      onSuccess: (saved) => toaster.create({ type: 'success', title: T.CONNECTION_SAVED(saved.name) }),
      onError: (e) => toaster.create({ type: 'error', title: errorMessage(e, T.CHANGE_FAILED) }),
    });
  const switchRow = (label: string, checked: boolean, key: 'enabled' | 'jitProvisioning') => (
    <Switch.Root
      checked={checked}
      disabled={!canEdit || change.isPending}
      onCheckedChange={(e) => save({ [key]: e.checked })}
      colorPalette="blue"
    >
      <Switch.HiddenInput />
      <Switch.Control />
      <Switch.Label>{label}</Switch.Label>
    </Switch.Root>
  );

  return (
    <Box borderWidth="1px" rounded="md" p="3" data-testid={`connection-${c.id}`}>
      <Stack gap="3">
        <HStack justify="space-between" wrap="wrap" gap="2">
          <HStack gap="2">
            <Text fontWeight="semibold">{c.name}</Text>
            <Badge>{c.protocol === 'oidc' ? 'OpenID Connect' : 'SAML 2.0'}</Badge>
            <Badge colorPalette={c.enabled ? 'green' : 'gray'} data-testid="connection-status">
              {c.enabled ? 'Enabled' : 'Disabled'}
            </Badge>
          </HStack>
          {canEdit && (
            <HStack gap="2">
              <Button
                size="sm"
                variant="outline"
                aria-label={`Test connection ${c.name}`}
                loading={test.isPending || test.isSuccess}
                onClick={() => test.mutate()}
              >
                Test connection
              </Button>
              <Button
                size="sm"
                variant="outline"
                colorPalette="red"
                aria-label={`Remove ${c.name}`}
                onClick={() => setConfirmRemove(true)}
              >
                Remove
              </Button>
            </HStack>
          )}
        </HStack>
        <HStack gap="6" wrap="wrap" align="end">
          {switchRow('Enabled', c.enabled, 'enabled')}
          {switchRow('Just-in-time accounts', c.jitProvisioning, 'jitProvisioning')}
          <Field.Root maxW="xs" disabled={!canEdit || change.isPending}>
            <Field.Label>Role of new accounts</Field.Label>
            <NativeSelect.Root size="sm">
              <NativeSelect.Field
                aria-label={`Role of new accounts: ${c.name}`}
                value={String(c.defaultRoleId ?? BASE_ROLE)}
                onChange={(e) => save({ defaultRoleId: Number(e.target.value) })}
              >
                <RoleOptions roles={SSO_DEFAULT_ROLES} />
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </Field.Root>
        </HStack>
        {c.protocol === 'oidc' ? (
          <SimpleGrid columns={{ base: 1, md: 2 }} gap="3">
            <CopyField label="Redirect URI (register it with the provider)" value={c.redirectUri ?? ''} />
            <CopyField label="Issuer" value={c.issuer ?? ''} />
            <CopyField label="Client ID" value={c.clientId ?? ''} />
          </SimpleGrid>
        ) : (
          <SimpleGrid columns={{ base: 1, md: 2 }} gap="3">
            <CopyField label="ACS URL (reply URL)" value={c.acsUrl ?? ''} />
            <CopyField label="Entity ID (identifier)" value={c.spEntityId ?? ''} />
            <CopyField label="Identity provider" value={c.idpEntityId ?? ''} />
            {c.spMetadataUrl && (
              <Box>
                <Text fontSize="sm" color="fg.muted">
                  Service provider metadata
                </Text>
                <Link
                  href={c.spMetadataUrl}
                  download={`tax-portal-sp-${c.id}.xml`}
                  colorPalette="blue"
                  variant="underline"
                >
                  Download SP metadata
                </Link>
              </Box>
            )}
          </SimpleGrid>
        )}
      </Stack>
      <RemoveDialog
        open={confirmRemove}
        title="Remove connection"
        message={T.REMOVE_CONNECTION(c.name)}
        removed={T.CONNECTION_REMOVED(c.name)}
        remove={remove}
        onClose={() => setConfirmRemove(false)}
      />
    </Box>
  );
}
