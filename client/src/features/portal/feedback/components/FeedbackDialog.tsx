import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Field, Input, Stack, Textarea } from '@chakra-ui/react';
import { useMutation } from '@tanstack/react-query';
import { FEEDBACK_MESSAGES, SHELL_LIMITS } from '@shared/portal/shell';
import { AppDialog, DialogActions } from '@/components/ui/app-dialog';
import { toaster } from '@/components/ui/toaster';
import { ApiError } from '@/lib/api';
import { useAuth } from '@/lib/auth';
import { requiredText } from '@/lib/forms';
import { sendFeedback } from '../api/feedback-api';

/** The error's message, or its serialised form (spec 001 §8). */
function describe(error: unknown): string {
  if (error instanceof ApiError && error.body.message) return error.body.message;
  if (error instanceof Error && error.message) return error.message;
  try {
    return JSON.stringify(error);
  } catch {
    return String(error);
  }
}

const feedbackSchema = z.object({
  title: requiredText(FEEDBACK_MESSAGES.TITLE_REQUIRED),
  content: requiredText(FEEDBACK_MESSAGES.CONTENT_REQUIRED),
});
type FeedbackForm = z.infer<typeof feedbackSchema>;
const EMPTY: FeedbackForm = { title: '', content: '' };

/** Give Feedback (spec 001 §2.9): title and content (10 rows), both required; Submit disabled while invalid or loading. */
export function FeedbackDialog({
  open,
  onClose,
  finalFocusEl,
}: {
  open: boolean;
  onClose: () => void;
  finalFocusEl?: () => HTMLElement | null;
}) {
  const { user } = useAuth();
  const form = useForm<FeedbackForm>({
    resolver: zodResolver(feedbackSchema),
    mode: 'onTouched',
    defaultValues: EMPTY,
  });
  const { errors, isValid } = form.formState;

  const close = () => {
    form.reset(EMPTY);
    onClose();
  };

  const mutation = useMutation({
    mutationFn: ({ title, content }: FeedbackForm) =>
      sendFeedback({ title: title.trim(), content: content.trim(), userId: user?.id }),
    onSuccess: () => {
      toaster.create({ type: 'success', title: FEEDBACK_MESSAGES.RECEIVED });
      close();
    },
    onError: (error) => {
      toaster.create({ type: 'error', title: 'Feedback not sent', description: describe(error) });
      close();
    },
  });

  return (
    <AppDialog
      open={open}
      onClose={close}
      size="lg"
      finalFocusEl={finalFocusEl}
      title="Give Feedback"
      testId="feedback-dialog"
      closeButton
      onSubmit={form.handleSubmit((values) => mutation.mutate(values))}
      footer={
        <DialogActions
          onCancel={close}
          confirmLabel="Submit"
          submit
          disabled={!isValid || mutation.isPending}
          loading={mutation.isPending}
        />
      }
    >
      <Stack gap="4">
        <Field.Root required invalid={!!errors.title}>
          <Field.Label>Title</Field.Label>
          <Input maxLength={SHELL_LIMITS.FEEDBACK_TITLE_MAX} {...form.register('title')} />
          <Field.ErrorText>{errors.title?.message}</Field.ErrorText>
        </Field.Root>
        <Field.Root required invalid={!!errors.content}>
          <Field.Label>Content</Field.Label>
          <Textarea
            rows={SHELL_LIMITS.FEEDBACK_CONTENT_ROWS}
            maxLength={SHELL_LIMITS.FEEDBACK_CONTENT_MAX}
            {...form.register('content')}
          />
          <Field.ErrorText>{errors.content?.message}</Field.ErrorText>
        </Field.Root>
      </Stack>
    </AppDialog>
  );
}
