import { useState } from 'react';
import { Button, CloseButton, Dialog, Field, Input, Portal, Stack, Textarea } from '@chakra-ui/react';
import { useMutation } from '@tanstack/react-query';
import { FEEDBACK_MESSAGES, SHELL_LIMITS } from '@shared/shell';
import { toaster } from '@/components/ui/toaster';
import { ApiError } from '@/lib/api';
import { useAuth } from '@/lib/auth';
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

/** Give Feedback (spec 001 §2.9): title and content (10 rows), both required; Submit disabled while invalid or loading. */
export function FeedbackDialog({ open, onClose, finalFocusEl }: { open: boolean; onClose: () => void; finalFocusEl?: () => HTMLElement | null }) {
  const { user } = useAuth();
  const [title, setTitle] = useState('');
  const [content, setContent] = useState('');
  const [touched, setTouched] = useState({ title: false, content: false });
  const titleError = title.trim() ? undefined : FEEDBACK_MESSAGES.TITLE_REQUIRED;
  const contentError = content.trim() ? undefined : FEEDBACK_MESSAGES.CONTENT_REQUIRED;

  const reset = () => {
    setTitle('');
    setContent('');
    setTouched({ title: false, content: false });
  };
  const close = () => {
    reset();
    onClose();
  };

  const mutation = useMutation({
    mutationFn: () => sendFeedback({ title: title.trim(), content: content.trim(), userId: user?.id }),
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
    <Dialog.Root open={open} onOpenChange={(e) => !e.open && close()} placement="center" size="lg" finalFocusEl={finalFocusEl}>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="feedback-dialog">
            <form
              onSubmit={(e) => {
                e.preventDefault();
                if (!titleError && !contentError) mutation.mutate();
              }}
            >
              <Dialog.Header>
                <Dialog.Title>Give Feedback</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="4">
                  <Field.Root required invalid={touched.title && !!titleError}>
                    <Field.Label>Title</Field.Label>
                    <Input value={title} maxLength={SHELL_LIMITS.FEEDBACK_TITLE_MAX} onChange={(e) => setTitle(e.target.value)} onBlur={() => setTouched((t) => ({ ...t, title: true }))} />
                    <Field.ErrorText>{titleError}</Field.ErrorText>
                  </Field.Root>
                  <Field.Root required invalid={touched.content && !!contentError}>
                    <Field.Label>Content</Field.Label>
                    <Textarea
                      rows={SHELL_LIMITS.FEEDBACK_CONTENT_ROWS}
                      value={content}
                      maxLength={SHELL_LIMITS.FEEDBACK_CONTENT_MAX}
                      onChange={(e) => setContent(e.target.value)}
                      onBlur={() => setTouched((t) => ({ ...t, content: true }))}
                    />
                    <Field.ErrorText>{contentError}</Field.ErrorText>
                  </Field.Root>
                </Stack>
              </Dialog.Body>
              <Dialog.Footer>
                <Button variant="outline" onClick={close}>
                  Cancel
                </Button>
                <Button type="submit" colorPalette="blue" disabled={!!titleError || !!contentError || mutation.isPending} loading={mutation.isPending}>
                  Submit
                </Button>
              </Dialog.Footer>
            </form>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
