import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import {
  Badge,
  Box,
  Button,
  Card,
  Field,
  Heading,
  HStack,
  Input,
  Spinner,
  Stack,
  Text,
  Textarea,
} from '@chakra-ui/react';
import { Role } from '@shared/roles';
import { SHELL_LIMITS } from '@shared/portal/shell';
import { OrganisationPicker } from '@/components/ui/organisation-picker';
import { RadioChoice } from '@/components/ui/radio-choice';
import { toaster } from '@/components/ui/toaster';
import { formatDate } from '@/lib/formats';
import { errorMessage } from '@/lib/api';
import { requiredText } from '@/lib/forms';
import { Authorization } from '@/lib/authorization';
import { useAnnouncementAudiences, useAnnouncements, useCreateAnnouncement } from '../api/announcements-api';

/** The announcements page: every announcement the user can see, newest first; E-Support publishes here. */
export function AnnouncementsPage() {
  const { data, isLoading, error } = useAnnouncements();
  return (
    <Stack gap="6">
      <Heading size="2xl">Announcements</Heading>
      <Authorization roles={[Role.E_SUPPORT]}>
        <PublishForm />
      </Authorization>
      {isLoading && <Spinner />}
      {error && <Text color="fg.error">{errorMessage(error, 'Failed to load announcements.')}</Text>}
      {data && data.length === 0 && <Text color="fg.muted">There are no announcements.</Text>}
      <Stack gap="4" data-testid="announcement-list">
        {data?.map((a) => (
          <Card.Root key={a.id} data-testid="announcement">
            <Card.Header>
              <HStack justify="space-between" wrap="wrap">
                <Heading size="md">{a.title}</Heading>
                <HStack>
                  {a.dismissed && <Badge>Dismissed</Badge>}
                  <Badge colorPalette="blue">
                    {a.organisationId === null
                      ? 'All organisations'
                      : (a.organisationName ?? `Organisation ${a.organisationId}`)}
                  </Badge>
                  <Text fontSize="sm" color="fg.muted">
                    {formatDate(a.createdAt)}
                  </Text>
                </HStack>
              </HStack>
            </Card.Header>
            <Card.Body pt="2">
              <Text whiteSpace="pre-wrap">{a.content}</Text>
            </Card.Body>
          </Card.Root>
        ))}
      </Stack>
    </Stack>
  );
}

/** Publish needs a title, a text and, for one organisation, the organisation (no messages: the button stays disabled). */
const publishSchema = z
  .object({
    title: requiredText('title'),
    content: requiredText('content'),
    audience: z.enum(['all', 'one']),
    organisationId: z.string(),
  })
  .refine((v) => v.audience === 'all' || v.organisationId !== '', {
    path: ['organisationId'],
    message: 'organisation',
  });
type PublishValues = z.infer<typeof publishSchema>;

function PublishForm() {
  const form = useForm<PublishValues>({
    resolver: zodResolver(publishSchema),
    mode: 'onChange',
    defaultValues: { title: '', content: '', audience: 'all', organisationId: '' },
  });
  const create = useCreateAnnouncement();
  const audiences = useAnnouncementAudiences();
  const audience = useWatch({ control: form.control, name: 'audience' });

  return (
    <Box
      as="form"
      borderWidth="1px"
      rounded="md"
      p="4"
      bg="bg"
      data-testid="publish-announcement"
      onSubmit={form.handleSubmit(({ title, content, audience, organisationId }) =>
        create.mutate(
          {
            title: title.trim(),
            content: content.trim(),
            organisationId: audience === 'all' ? null : Number(organisationId),
          },
          {
            onSuccess: () => {
              toaster.create({ type: 'success', title: 'The announcement has been published.' });
              form.reset({ ...form.getValues(), title: '', content: '' });
            },
            onError: (err) =>
              toaster.create({ type: 'error', title: errorMessage(err, 'Failed to publish the announcement.') }),
          },
        ),
      )}
    >
      <Stack gap="3">
        <Heading size="md">Publish an announcement</Heading>
        <Field.Root required>
          <Field.Label>Announcement title</Field.Label>
          <Input maxLength={SHELL_LIMITS.ANNOUNCEMENT_TITLE_MAX} {...form.register('title')} />
        </Field.Root>
        <Field.Root required>
          <Field.Label>Announcement text</Field.Label>
          <Textarea rows={4} maxLength={SHELL_LIMITS.ANNOUNCEMENT_CONTENT_MAX} {...form.register('content')} />
        </Field.Root>
        <Controller
          control={form.control}
          name="audience"
          render={({ field }) => (
            <RadioChoice
              value={field.value}
              onChange={field.onChange}
              options={[
                { value: 'all', label: 'All organisations' },
                { value: 'one', label: 'One organisation' },
              ]}
            />
          )}
        />
        {audience === 'one' && (
          <OrganisationPicker
            label="Organisation"
            required
            organisations={audiences.data}
            emptyLabel="Choose an organisation"
            {...form.register('organisationId')}
          />
        )}
        <Box>
          <Button type="submit" colorPalette="blue" disabled={!form.formState.isValid} loading={create.isPending}>
            Publish
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}
