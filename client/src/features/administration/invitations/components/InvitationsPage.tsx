import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import {
  Badge,
  Box,
  Button,
  Checkbox,
  Field,
  Heading,
  HStack,
  Input,
  NativeSelect,
  Progress,
  Stack,
  Table,
  Text,
} from '@chakra-ui/react';
import { useMutation } from '@tanstack/react-query';
import { assignableMainRoles, canToggleAdministrator } from '@shared/identity/account-rules';
import {
  BulkInviteResult,
  INVITATION_LIMITS as L,
  INVITATION_STATUSES,
  InvitationItem,
  InvitationStatus,
} from '@shared/administration/invitations';
import { BASE_ROLE, Role, ROLE_NAMES } from '@shared/roles';
import { ChosenOrganisationPicker } from '@/components/ChosenOrganisationPicker';
import { OrganisationPage } from '@/components/OrganisationPage';
import { useConfirmedAction } from '@/components/ui/confirm-action';
import { DataTable } from '@/components/ui/data-table';
import { RowButton } from '@/components/ui/row-button';
import { toaster, toastFailure } from '@/components/ui/toaster';
import { errorMessage } from '@/lib/api';
import { useAuth } from '@/lib/auth';
import { formatDateTime } from '@/lib/formats';
import { useOrganisationScope } from '@/lib/organisation-scope';
import { invitationsApi, useInvitations, useReloadInvitations } from '../api/invitations-api';
import { csvBatches } from '../csv-batches';
import { BULK_STATUS_LABELS, INVITATION_TEXTS as T, STATUS_LABELS } from '../invitations-texts';

const inviteSchema = z.object({
  email: z.string().trim().min(1, 'User email must not be empty').email('Entered email is not a valid email'),
  roleId: z.string(),
  admin: z.boolean(),
  expiresInDays: z.string().refine((v) => {
    const days = Number(v);
    return Number.isInteger(days) && days >= L.EXPIRES_IN_DAYS_MIN && days <= L.EXPIRES_IN_DAYS_MAX;
  }, `Between ${L.EXPIRES_IN_DAYS_MIN} and ${L.EXPIRES_IN_DAYS_MAX} days.`),
});
type InviteForm = z.infer<typeof inviteSchema>;

const roleLabel = (i: Pick<InvitationItem, 'roleId' | 'admin'>) =>
  `${ROLE_NAMES[i.roleId as Role]}${i.admin ? `, ${ROLE_NAMES[Role.ADMINISTRATOR]}` : ''}`;

/**
 * The invitations tab (organisation settings): invite one person or many from a CSV file (sent in batches, with
 * a progress bar and a result per row), the list with its status, resend and withdraw, and pending invitations
 * against the free seats. E-Support works on the organisation named in the address.
 */
export function InvitationsPage() {
  const { roles, user } = useAuth();
  const scope = useOrganisationScope();
  const support = roles.includes(Role.E_SUPPORT);
  const organisationId = scope.organisationId;
  const [status, setStatus] = useState<InvitationStatus | ''>('');
  // Asked once the caller is known: E-Support without an organisation has none to read.
  const list = useInvitations(organisationId, status, !!user && !(support && !organisationId));
  const reload = useReloadInvitations();
  const done = (title: string) => () => {
    toaster.create({ type: 'success', title });
    void reload();
  };
  const resend = useMutation({
    mutationFn: (i: InvitationItem) => invitationsApi.resend(i.id),
    onSuccess: done(T.RESENT),
    onError: toastFailure(T.FAILED_ACTION),
  });
  const revoke = useConfirmedAction({
    mutationFn: (i: InvitationItem) => invitationsApi.revoke(i.id),
    onSuccess: done(T.REVOKED),
    onError: toastFailure(T.FAILED_ACTION),
    question: { title: T.REVOKE_TITLE, message: (i) => T.revokeQuestion(i.email), confirmLabel: T.REVOKE },
  });

  if (support && !organisationId)
    return (
      <OrganisationPage name="invitations" texts={{ TITLE: T.TITLE }} gap="4">
        <Text>{T.SUPPORT_PICK}</Text>
        <ChosenOrganisationPicker label="Organisation" emptyLabel="Choose an organisation" />
      </OrganisationPage>
    );

  const seats = list.data?.seats;
  return (
    <OrganisationPage name="invitations" texts={T} gap="6" maxW="5xl">
      {seats && (
        <Text data-testid="invitation-seats" fontWeight="medium">
          {T.seats(seats.pendingInvitations, seats.freeSeats)}
        </Text>
      )}
      <InviteOne organisationId={organisationId} onDone={() => void reload()} />
      <InviteMany organisationId={organisationId} onDone={() => void reload()} />
      <Stack gap="3">
        <Heading as="h2" size="md">
          {T.LIST}
        </Heading>
        <Field.Root maxW="xs">
          <Field.Label>{T.STATUS_FILTER}</Field.Label>
          <NativeSelect.Root size="sm">
            <NativeSelect.Field
              data-testid="invitation-status-filter"
              value={status}
              onChange={(e) => setStatus(e.target.value as InvitationStatus | '')}
            >
              <option value="">{T.ALL}</option>
              {INVITATION_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {STATUS_LABELS[s]}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Field.Root>
        {list.isError && <Text color="fg.error">{errorMessage(list.error, T.FAILED_ACTION)}</Text>}
        {list.data && list.data.items.length === 0 && <Text>{T.NONE}</Text>}
        {list.data && list.data.items.length > 0 && (
          <DataTable
            data-testid="invitations"
            columns={['Email', 'Role', 'Status', 'Expires', 'Invited by']}
            actions="Actions"
          >
            {list.data.items.map((i) => (
              <Table.Row key={i.id} data-testid="invitation-row">
                <Table.Cell>{i.email}</Table.Cell>
                <Table.Cell>{roleLabel(i)}</Table.Cell>
                <Table.Cell>
                  <Badge colorPalette={i.status === 'pending' ? 'blue' : i.status === 'accepted' ? 'green' : 'gray'}>
                    {STATUS_LABELS[i.status]}
                  </Badge>
                </Table.Cell>
                <Table.Cell>{formatDateTime(i.expiresAt)}</Table.Cell>
                <Table.Cell>{i.invitedBy ?? '—'}</Table.Cell>
                <Table.Cell textAlign="end">
                  {(i.status === 'pending' || i.status === 'expired') && (
                    <HStack justify="end" gap="2">
                      <RowButton
                        label={T.RESEND}
                        of={i.email}
                        loading={resend.isPending && resend.variables?.id === i.id}
                        onClick={() => resend.mutate(i)}
                      />
                      <RowButton label={T.REVOKE} of={i.email} colorPalette="red" onClick={() => revoke.ask(i)} />
                    </HStack>
                  )}
                </Table.Cell>
              </Table.Row>
            ))}
          </DataTable>
        )}
      </Stack>
      {revoke.dialog}
    </OrganisationPage>
  );
}

function InviteOne({ organisationId, onDone }: { organisationId?: number; onDone: () => void }) {
  const { roles } = useAuth();
  const choices = assignableMainRoles({ roles });
  const mayFlag = canToggleAdministrator({ id: 0, roles });
  const form = useForm<InviteForm>({
    resolver: zodResolver(inviteSchema),
    defaultValues: {
      email: '',
      roleId: String(choices.includes(BASE_ROLE) ? BASE_ROLE : (choices[0] ?? '')),
      admin: false,
      expiresInDays: String(L.EXPIRES_IN_DAYS_DEFAULT),
    },
  });
  const errors = form.formState.errors;
  const send = useMutation({
    mutationFn: (v: InviteForm) =>
      invitationsApi.invite(
        { email: v.email.trim(), roleId: Number(v.roleId), admin: v.admin, expiresInDays: Number(v.expiresInDays) },
        organisationId,
      ),
    onSuccess: () => {
      toaster.create({ type: 'success', title: T.SENT });
      form.reset({ ...form.getValues(), email: '', admin: false });
      onDone();
    },
    onError: (e) => form.setError('email', { message: errorMessage(e, T.FAILED_ACTION) }),
  });
  return (
    <Box as="section" borderWidth="1px" borderRadius="md" p="4" aria-labelledby="invite-one">
      <Heading as="h2" size="md" mb="3" id="invite-one">
        {T.INVITE_ONE}
      </Heading>
      <form noValidate data-testid="invite-form" onSubmit={form.handleSubmit((v) => send.mutate(v))}>
        <Stack gap="3" direction={{ base: 'column', md: 'row' }} align={{ md: 'end' }} flexWrap="wrap">
          <Field.Root invalid={!!errors.email} required maxW="sm">
            <Field.Label>
              {T.EMAIL}
              <Field.RequiredIndicator />
            </Field.Label>
            <Input type="email" autoComplete="off" {...form.register('email')} />
            <Field.ErrorText>{errors.email?.message}</Field.ErrorText>
          </Field.Root>
          <Field.Root maxW="xs">
            <Field.Label>{T.ROLE}</Field.Label>
            <NativeSelect.Root>
              <NativeSelect.Field data-testid="invite-role" {...form.register('roleId')}>
                {choices.map((r) => (
                  <option key={r} value={r}>
                    {ROLE_NAMES[r]}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </Field.Root>
          <Field.Root invalid={!!errors.expiresInDays} maxW="36">
            <Field.Label>{T.EXPIRES_IN}</Field.Label>
            <Input
              type="number"
              min={L.EXPIRES_IN_DAYS_MIN}
              max={L.EXPIRES_IN_DAYS_MAX}
              {...form.register('expiresInDays')}
            />
            <Field.ErrorText>{errors.expiresInDays?.message}</Field.ErrorText>
          </Field.Root>
          {mayFlag && (
            <Checkbox.Root
              defaultChecked={false}
              onCheckedChange={(c) => form.setValue('admin', c.checked === true)}
              data-testid="invite-admin"
            >
              <Checkbox.HiddenInput />
              <Checkbox.Control />
              <Checkbox.Label>{T.ADMIN_FLAG}</Checkbox.Label>
            </Checkbox.Root>
          )}
          <Button type="submit" colorPalette="blue" loading={send.isPending}>
            {T.SEND}
          </Button>
        </Stack>
      </form>
    </Box>
  );
}

function InviteMany({ organisationId, onDone }: { organisationId?: number; onDone: () => void }) {
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [results, setResults] = useState<BulkInviteResult[]>([]);
  const [failure, setFailure] = useState<string | null>(null);

  async function upload(file: File) {
    setFailure(null);
    setResults([]);
    const batches = csvBatches(await file.text(), L.BULK_CLIENT_BATCH);
    if (batches.rows === 0) return setFailure('The file holds no rows below its header.');
    if (batches.rows > L.BULK_MAX_ROWS) return setFailure(`A file may hold at most ${L.BULK_MAX_ROWS} rows.`);
    setProgress({ done: 0, total: batches.rows });
    const all: BulkInviteResult[] = [];
    try {
      for (const batch of batches.batches) {
        const answer = await invitationsApi.bulk(batch.csv, organisationId);
        all.push(...answer.map((r) => ({ ...r, row: r.row + batch.offset })));
        setResults([...all]);
        setProgress({ done: batch.offset + batch.rows, total: batches.rows });
      }
    } catch (e) {
      setFailure(errorMessage(e, T.FAILED_ACTION));
    } finally {
      setProgress(null);
      onDone();
    }
  }

  const count = (s: BulkInviteResult['status']) => results.filter((r) => r.status === s).length;
  return (
    <Box as="section" borderWidth="1px" borderRadius="md" p="4" aria-labelledby="invite-many">
      <Heading as="h2" size="md" mb="2" id="invite-many">
        {T.UPLOAD}
      </Heading>
      <Text color="fg.muted" mb="3">
        {T.UPLOAD_HINT}
      </Text>
      <Field.Root maxW="sm">
        <Field.Label>{T.CHOOSE_FILE}</Field.Label>
        <Input
          type="file"
          accept=".csv,text/csv"
          p="1"
          data-testid="invite-csv"
          disabled={progress !== null}
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) void upload(file);
          }}
        />
      </Field.Root>
      {progress && (
        <Progress.Root
          mt="3"
          value={Math.round((progress.done / progress.total) * 100)}
          maxW="md"
          data-testid="invite-progress"
        >
          <Progress.Label>{T.UPLOADING}</Progress.Label>
          <Progress.Track>
            <Progress.Range />
          </Progress.Track>
          <Progress.ValueText>
            {progress.done} / {progress.total}
          </Progress.ValueText>
        </Progress.Root>
      )}
      {failure && (
        <Text color="fg.error" mt="3" role="alert">
          {failure}
        </Text>
      )}
      {results.length > 0 && (
        <Stack mt="3" gap="2">
          <Text data-testid="invite-bulk-summary">
            {T.uploaded(count('invited'), count('skipped'), count('refused'))}
          </Text>
          <DataTable
            data-testid="invite-bulk-results"
            columns={['Row', 'Email', 'Result', 'Reason']}
            scroll={{ maxH: '80', tabIndex: 0, role: 'region', 'aria-label': 'Results of the upload' }}
          >
            {results.map((r) => (
              <Table.Row key={r.row}>
                <Table.Cell>{r.row}</Table.Cell>
                <Table.Cell>{r.email}</Table.Cell>
                <Table.Cell>{BULK_STATUS_LABELS[r.status]}</Table.Cell>
                <Table.Cell>{r.reason ?? ''}</Table.Cell>
              </Table.Row>
            ))}
          </DataTable>
        </Stack>
      )}
    </Box>
  );
}
