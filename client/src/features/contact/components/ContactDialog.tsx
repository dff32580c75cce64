import { useEffect, useState } from 'react';
import { Button, CloseButton, Dialog, Field, Input, Portal, Stack, Textarea } from '@chakra-ui/react';
import { useMutation } from '@tanstack/react-query';
import { CONTACT_MESSAGES, ContactMessage, SHELL_LIMITS, validateContactMessage } from '@shared/shell';
import { toaster } from '@/components/ui/toaster';
import { useAuth } from '@/lib/auth';
import { sendContactMessage } from '../api/contact-api';

const FIELDS: Array<{ key: keyof ContactMessage; label: string }> = [
  { key: 'name', label: 'Name' },
  { key: 'email', label: 'Email' },
  { key: 'subject', label: 'Subject' },
  { key: 'message', label: 'Message' },
];
const NONE_TOUCHED = { name: false, email: false, subject: false, message: false };

/**
 * Contact Us (spec 001 §2.10): name, email, subject and message (8 rows), 800px wide at most 90vw,
 * pre-filled from the signed-in user; the rule of spec 001 §5 is src/shared/shell.ts, the server's too.
 */
export function ContactDialog({ open, onClose, initialSubject = '', finalFocusEl }: { open: boolean; onClose: () => void; initialSubject?: string; finalFocusEl?: () => HTMLElement | null }) {
  const { user } = useAuth();
  const prefill = (): ContactMessage => ({
    name: user ? [user.firstName, user.lastName].filter(Boolean).join(' ') : '',
    email: user?.email ?? '',
    subject: initialSubject,
    message: '',
  });
  const [values, setValues] = useState<ContactMessage>(prefill);
  const [touched, setTouched] = useState(NONE_TOUCHED);

  useEffect(() => {
    if (open) {
      setValues(prefill());
      setTouched(NONE_TOUCHED);
    }
    // Refill each time it opens, and when the user's information arrives.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, user?.id]);

  const errors = validateContactMessage(values);
  const mutation = useMutation({
    mutationFn: () => sendContactMessage({ name: values.name.trim(), email: values.email.trim(), subject: values.subject.trim(), message: values.message.trim() }),
    onSuccess: () => {
      toaster.create({ type: 'success', title: CONTACT_MESSAGES.SENT });
      onClose();
    },
    onError: () => toaster.create({ type: 'error', title: CONTACT_MESSAGES.FAILED }),
  });

  return (
    <Dialog.Root open={open} onOpenChange={(e) => !e.open && onClose()} placement="center" finalFocusEl={finalFocusEl}>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content w={SHELL_LIMITS.CONTACT_DIALOG_WIDTH} maxW={SHELL_LIMITS.CONTACT_DIALOG_MAX_WIDTH} data-testid="contact-dialog">
            <form
              noValidate
              onSubmit={(e) => {
                e.preventDefault();
                // Spec 001 §4: an invalid submit marks every field touched.
                if (Object.keys(errors).length) setTouched({ name: true, email: true, subject: true, message: true });
                else mutation.mutate();
              }}
            >
              <Dialog.Header>
                <Dialog.Title>Contact Us</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="4">
                  {FIELDS.map(({ key, label }) => {
                    const common = {
                      value: values[key],
                      onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => setValues((v) => ({ ...v, [key]: e.target.value })),
                      onBlur: () => setTouched((t) => ({ ...t, [key]: true })),
                    };
                    return (
                      <Field.Root key={key} required invalid={touched[key] && !!errors[key]}>
                        <Field.Label>{label}</Field.Label>
                        {key === 'message' ? (
                          <Textarea rows={SHELL_LIMITS.CONTACT_MESSAGE_ROWS} maxLength={SHELL_LIMITS.CONTACT_MESSAGE_MAX} {...common} />
                        ) : (
                          <Input type={key === 'email' ? 'email' : 'text'} maxLength={key === 'email' ? SHELL_LIMITS.CONTACT_EMAIL_MAX : SHELL_LIMITS.CONTACT_SUBJECT_MAX} {...common} />
                        )}
                        <Field.ErrorText>{errors[key]}</Field.ErrorText>
                      </Field.Root>
                    );
                  })}
                </Stack>
              </Dialog.Body>
              <Dialog.Footer>
                <Button variant="outline" onClick={onClose}>
                  Cancel
                </Button>
                <Button type="submit" colorPalette="blue" loading={mutation.isPending}>
                  Send
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
