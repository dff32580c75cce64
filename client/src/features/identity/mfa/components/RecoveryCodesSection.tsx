import { useState } from 'react';
import { Button, HStack, Text } from '@chakra-ui/react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { DEVICES_QUERY_KEY, recoveryApi, RECOVERY_QUERY_KEY } from '../api/recovery-api';
import { codesLeftText, RECOVERY_TEXTS } from '../recovery-texts';
import { MFA_TEXTS } from '../mfa-texts';
import { CodeEntryDialog, useCodeEntry } from './CodeEntryDialog';
import { RecoveryCodesDialog } from './RecoveryCodesDialog';

/** In the profile's MFA panel: how many recovery codes are left, and "Regenerate recovery codes". */
export function RecoveryCodesSection() {
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: RECOVERY_QUERY_KEY, queryFn: recoveryApi.status });
  const [asking, setAsking] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);
  const remaining = status.data?.remaining;
  return (
    <HStack justify="space-between" mt="3" data-testid="recovery-codes-section">
      <Text fontSize="sm">
        Recovery codes:{' '}
        <Text as="span" fontWeight="semibold" data-testid="recovery-codes-left">
          {remaining === undefined ? MFA_TEXTS.LOADING : codesLeftText(remaining)}
        </Text>
      </Text>
      <Button size="sm" variant="outline" onClick={() => setAsking(true)}>
        {RECOVERY_TEXTS.REGENERATE}
      </Button>
      {/* Mounted only while asked for, so each opening starts empty. */}
      {asking && (
        <RegenerateDialog
          onClose={() => setAsking(false)}
          onCodes={(fresh) => {
            setAsking(false);
            setCodes(fresh);
            void queryClient.invalidateQueries({ queryKey: RECOVERY_QUERY_KEY });
            void queryClient.invalidateQueries({ queryKey: DEVICES_QUERY_KEY });
          }}
        />
      )}
      <RecoveryCodesDialog codes={codes} onDone={() => setCodes(null)} />
    </HStack>
  );
}

/** Asks for a current TOTP code, as switching MFA off does. */
function RegenerateDialog({ onClose, onCodes }: { onClose: () => void; onCodes: (codes: string[]) => void }) {
  const entry = useCodeEntry(recoveryApi.regenerate, (res) => onCodes(res.codes));
  return (
    <CodeEntryDialog
      onClose={onClose}
      title={RECOVERY_TEXTS.REGENERATE_TITLE}
      intro={RECOVERY_TEXTS.REGENERATE_INTRO}
      entry={entry}
      testId="regenerate-codes-dialog"
      size="sm"
    />
  );
}
