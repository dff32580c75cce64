import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Field, Input, Stack, Textarea } from '@chakra-ui/react';
import { useMutation } from '@tanstack/react-query';
import { CONTACT_MESSAGES, ContactMessage, SHELL_LIMITS, validateContactMessage } from '@shared/portal/shell';
import { AppDialog, DialogActions } from '@/components/ui/app-dialog';
import { toaster } from '@/components/ui/toaster';
import { useAuth } from '@/lib/auth';
import { sendContactMessage } from '../api/contact-api';

const FIELDS: Array<{ key: keyof ContactMessage; label: string }> = [
  { key: 'name', label: 'Name' },
  { key: 'email', label: 'Email' },
  { key: 'subject', label: 'Subject' },
  { key: 'message', label: 'Message' },
];

/** Spec 001 §5: the shared rule (src/shared/portal/shell.ts, the server's too) reports each field's first failure. */
const contactSchema = z
  .object({ name: z.string(), email: z.string(), subject: z.string(), message: z.string() })
  .superRefine((values, ctx) => {
    for (const [field, message] of Object.entries(validateContactMessage(values)))
      ctx.addIssue({ code: 'custom', path: [field], message });
  });

/**
 * Contact Us (spec 001 §2.10): name, email, subject and message (8 rows), 800px wide at most 90vw,
 * pre-filled from the signed-in user; the rule of spec 001 §5 is src/shared/portal/shell.ts, the server's too.
 */
export function ContactDialog({
  open,
  onClose,
  initialSubject = '',
  finalFocusEl,
}: {
  open: boolean;
  onClose: () => void;
  initialSubject?: string;
  finalFocusEl?: () => HTMLElement | null;
}) {
  const { user } = useAuth();
  const prefill = (): ContactMessage => ({
    name: user ? [user.firstName, user.lastName].filter(Boolean).join(' ') : '',
    email: user?.email ?? '',
    subject: initialSubject,
    message: '',
  });
  const form = useForm<ContactMessage>({
    resolver: zodResolver(contactSchema),
    mode: 'onTouched',
    defaultValues: prefill(),
  });
  const { errors } = form.formState;

  useEffect(() => {
    if (open) form.reset(prefill());
    // Refill each time it opens, and when the user's information arrives.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, user?.id]);

  const mutation = useMutation({
    mutationFn: (values: ContactMessage) =>
      sendContactMessage({
        name: values.name.trim(),
        email: values.email.trim(),
        subject: values.subject.trim(),
        message: values.message.trim(),
      }),
    onSuccess: () => {
      toaster.create({ type: 'success', title: CONTACT_MESSAGES.SENT });
      onClose();
    },
    onError: () => toaster.create({ type: 'error', title: CONTACT_MESSAGES.FAILED }),
  });

  return (
    <AppDialog
      open={open}
      onClose={onClose}
      finalFocusEl={finalFocusEl}
      title="Contact Us"
      testId="contact-dialog"
      width={SHELL_LIMITS.CONTACT_DIALOG_WIDTH}
      maxWidth={SHELL_LIMITS.CONTACT_DIALOG_MAX_WIDTH}
      closeButton
      // Spec 001 §4: an invalid submit shows every field's message (handleSubmit validates them all).
      noValidate
      onSubmit={form.handleSubmit((values) => mutation.mutate(values))}
      footer={<DialogActions onCancel={onClose} confirmLabel="Send" submit loading={mutation.isPending} />}
    >
      <Stack gap="4">
        {FIELDS.map(({ key, label }) => {
          const common = form.register(key);
          return (
            <Field.Root key={key} required invalid={!!errors[key]}>
              <Field.Label>{label}</Field.Label>
              {key === 'message' ? (
                <Textarea
                  rows={SHELL_LIMITS.CONTACT_MESSAGE_ROWS}
                  maxLength={SHELL_LIMITS.CONTACT_MESSAGE_MAX}
                  {...common}
                />
              ) : (
                <Input
                  type={key === 'email' ? 'email' : 'text'}
                  maxLength={key === 'email' ? SHELL_LIMITS.CONTACT_EMAIL_MAX : SHELL_LIMITS.CONTACT_SUBJECT_MAX}
                  {...common}
                />
              )}
              <Field.ErrorText>{errors[key]?.message}</Field.ErrorText>
            </Field.Root>
          );
        })}
      </Stack>
    </AppDialog>
  );
}
