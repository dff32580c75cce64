import { useState } from 'react';
import { Button, Field, Text, Textarea } from '@chakra-ui/react';
import { SUPPORT_ACCESS_LIMITS as L } from '@shared/portal/support-access';
import { AppDialog } from '@/components/ui/app-dialog';
import { toaster } from '@/components/ui/toaster';
import { errorMessage } from '@/lib/api';
import { supportAccessApi, useSupportAccessChange } from '../api/support-access-api';
import { SUPPORT_ACCESS_TEXTS as T } from '../support-access-texts';

/** The request form of the user list's row menu (E-Support): why support needs to act as this member. */
export function RequestSupportAccessDialog({
  member,
  onClose,
}: {
  member: { id: number; email: string } | null;
  onClose: () => void;
}) {
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  const ask = useSupportAccessChange(supportAccessApi.ask);
  const length = reason.trim().length;
  const invalid = length < L.REASON_MIN || length > L.REASON_MAX;
  const close = () => {
    setReason('');
    setTouched(false);
    onClose();
  };
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (!member || invalid) return;
    ask.mutate(
      { userId: member.id, reason: reason.trim() },
      {
        onSuccess: (created) => {
          toaster.create({
            type: 'success',
            title: created.status === 'approved' ? T.SENT_APPROVED : T.SENT_PENDING,
          });
          close();
        },
        onError: (err) => toaster.create({ type: 'error', title: errorMessage(err, T.SEND_FAILED) }),
      },
    );
  };
  return (
    <AppDialog
      open={member !== null}
      onClose={close}
      title={T.REQUEST_TITLE}
      testId="support-access-request"
      onSubmit={submit}
      noValidate
      footer={
        <>
          <Button variant="outline" onClick={close}>
            {T.CANCEL}
          </Button>
          <Button type="submit" colorPalette="blue" loading={ask.isPending}>
            {T.SEND}
          </Button>
        </>
      }
    >
      <Text mb="4">{T.REQUEST_INTRO(member?.email ?? '')}</Text>
      <Field.Root required invalid={touched && invalid}>
        <Field.Label>
          {T.REASON_LABEL}
          <Field.RequiredIndicator />
        </Field.Label>
        <Textarea value={reason} maxLength={L.REASON_MAX} onChange={(e) => setReason(e.target.value)} rows={4} />
        <Field.HelperText>{T.REASON_RULE}</Field.HelperText>
        <Field.ErrorText>{T.REASON_RULE}</Field.ErrorText>
      </Field.Root>
    </AppDialog>
  );
}
