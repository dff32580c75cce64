import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Alert, Badge, Box, Button, Card, Field, Heading, HStack, Input, Spinner, Stack, Text } from '@chakra-ui/react';
import {
  DOMAIN_MAX,
  DOMAIN_MESSAGES,
  DOMAIN_RECORD_GRACE_DAYS,
  domainInputProblem,
  type DomainItem,
} from '@shared/identity/domains';
import { toaster } from '@/components/ui/toaster';
import { errorMessage } from '@/lib/api';
import { ruled } from '@/lib/forms';
import { formatDateTime } from '@/lib/formats';
import { ssoApi, useDomains, useSsoMutation } from '../api/sso-api';
import { SSO_PAGE_TEXTS as T } from '../federation-texts';
import { CopyField } from './CopyField';
import { RemoveDialog } from './RemoveDialog';

const DAY_MS = 24 * 60 * 60 * 1000;

const claimSchema = z.object({ domain: ruled(domainInputProblem) });

/** Domains: claim one, publish its TXT record, verify it; remove. Readers see the list only. */
export function DomainsSection({ organisationId, canEdit }: { organisationId: number | null; canEdit: boolean }) {
  const domains = useDomains(organisationId);
  return (
    <Card.Root data-testid="sso-domains">
      <Card.Header>
        <Heading as="h2" size="md">
          Domains
        </Heading>
        <Text color="fg.muted" fontSize="sm">
          {T.DOMAINS_INTRO}
        </Text>
      </Card.Header>
      <Card.Body>
        <Stack gap="4">
          {canEdit && <ClaimDomainForm organisationId={organisationId} />}
          {domains.isLoading && <Spinner aria-label="Loading domains" />}
          {domains.isError && (
            <Alert.Root status="error">
              <Alert.Indicator />
              <Alert.Title>{errorMessage(domains.error, T.LOAD_FAILED)}</Alert.Title>
            </Alert.Root>
          )}
          {domains.data?.length === 0 && <Text data-testid="no-domains">{T.NO_DOMAINS}</Text>}
          {domains.data?.map((d) => (
            <DomainRow key={d.id} domain={d} canEdit={canEdit} />
          ))}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}

function ClaimDomainForm({ organisationId }: { organisationId: number | null }) {
  const form = useForm<{ domain: string }>({
    resolver: zodResolver(claimSchema),
    mode: 'onTouched',
    defaultValues: { domain: '' },
  });
  const claim = useSsoMutation((domain: string) => ssoApi.claimDomain(organisationId, domain));
  const error = form.formState.errors.domain?.message;
  return (
    <form
      noValidate
      data-testid="claim-domain"
      onSubmit={form.handleSubmit(({ domain }) =>
        claim.mutate(domain.trim(), {
          onSuccess: (d) => {
            form.reset({ domain: '' });
            toaster.create({ type: 'success', title: T.DOMAIN_ADDED(d.domain) });
          },
          onError: (e) => toaster.create({ type: 'error', title: errorMessage(e, T.CHANGE_FAILED) }),
        }),
      )}
    >
      <HStack align="end" gap="2" wrap="wrap">
        <Field.Root invalid={!!error} maxW="md" required>
          <Field.Label>Domain</Field.Label>
          <Input placeholder="example.com" maxLength={DOMAIN_MAX} {...form.register('domain')} />
          {error && <Field.ErrorText>{error}</Field.ErrorText>}
        </Field.Root>
        <Button type="submit" colorPalette="blue" loading={claim.isPending}>
          Add domain
        </Button>
      </HStack>
    </form>
  );
}

function DomainRow({ domain: d, canEdit }: { domain: DomainItem; canEdit: boolean }) {
  const [confirmRemove, setConfirmRemove] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const verify = useSsoMutation(() => ssoApi.verifyDomain(d.id));
  const remove = useSsoMutation(() => ssoApi.removeDomain(d.id));
  // A verified domain whose record the periodic check found missing: the record to publish again, and by when.
  const missing = d.verified && d.recordMissingSince !== null;
  const trustedUntil = missing
    ? formatDateTime(Date.parse(d.recordMissingSince!) + DOMAIN_RECORD_GRACE_DAYS * DAY_MS)
    : '';
  return (
    <Box borderWidth="1px" rounded="md" p="3" data-testid={`domain-${d.domain}`}>
      <Stack gap="3">
        <HStack justify="space-between" wrap="wrap" gap="2">
          <HStack gap="2">
            <Text fontWeight="semibold">{d.domain}</Text>
            <Badge colorPalette={d.verified ? 'green' : 'orange'} data-testid="domain-status">
              {d.verified ? 'Verified' : 'Not verified'}
            </Badge>
            {d.verifiedAt && (
              <Text fontSize="sm" color="fg.muted">
                since {formatDateTime(d.verifiedAt)}
              </Text>
            )}
          </HStack>
          {canEdit && (
            <HStack gap="2">
              {(!d.verified || missing) && (
                <Button
                  size="sm"
                  colorPalette="blue"
                  aria-label={`${missing ? 'Check again' : 'Verify'} ${d.domain}`}
                  loading={verify.isPending}
                  onClick={() => {
                    setProblem(null);
                    verify.mutate(undefined, {
                      onSuccess: () => toaster.create({ type: 'success', title: T.DOMAIN_VERIFIED(d.domain) }),
                      onError: (e) => setProblem(errorMessage(e, T.CHANGE_FAILED)),
                    });
                  }}
                >
                  {missing ? 'Check again' : 'Verify'}
                </Button>
              )}
              <Button
                size="sm"
                variant="outline"
                colorPalette="red"
                aria-label={`Remove ${d.domain}`}
                onClick={() => setConfirmRemove(true)}
              >
                Remove
              </Button>
            </HStack>
          )}
        </HStack>
        {missing && (
          <Alert.Root status="warning" data-testid="record-missing">
            <Alert.Indicator />
            <Alert.Title>{DOMAIN_MESSAGES.RECORD_MISSING(d.domain, trustedUntil)}</Alert.Title>
          </Alert.Root>
        )}
        {(!d.verified || missing) && (
          <>
            <Text fontSize="sm">{T.TXT_INSTRUCTIONS}</Text>
            <CopyField label="TXT record name" value={d.txtName} testId="txt-name" />
            <CopyField label="TXT record value" value={d.txtValue} testId="txt-value" />
          </>
        )}
        {problem && (
          <Alert.Root status="warning" data-testid="verify-problem">
            <Alert.Indicator />
            <Alert.Title>{problem}</Alert.Title>
          </Alert.Root>
        )}
      </Stack>
      <RemoveDialog
        open={confirmRemove}
        title="Remove domain"
        message={d.verified ? T.REMOVE_VERIFIED_DOMAIN(d.domain) : T.REMOVE_DOMAIN(d.domain)}
        removed={T.DOMAIN_REMOVED(d.domain)}
        remove={remove}
        onClose={() => setConfirmRemove(false)}
      />
    </Box>
  );
}
