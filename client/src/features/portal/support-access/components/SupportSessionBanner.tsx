import { Alert, Button, HStack, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { formatDateTime } from '@/lib/formats';
import { useAuth } from '@/lib/auth';
import { SUPPORT_ACCESS_TEXTS as T } from '../support-access-texts';

/**
 * On every page of a support-access session: whom the E-Support account acts as, why and until when, and Stop,
 * which ends it and returns this tab to the account's own session.
 */
export function SupportSessionBanner() {
  const { supportSession, stopSupportSession } = useAuth();
  const [stopping, setStopping] = useState(false);
  if (!supportSession) return null;
  const { member } = supportSession;
  const name = [member.firstName, member.lastName].filter(Boolean).join(' ');
  const who = name ? `${name} (${member.email})` : member.email;
  return (
    // Subtle, in the page's own text colour: the warning's orange behind text of at least 4.5:1 contrast.
    <Alert.Root
      status="warning"
      variant="subtle"
      color="fg"
      borderWidth="1px"
      borderColor="orange.emphasized"
      mb="3"
      data-testid="support-session-banner"
      aria-label={T.BANNER_LABEL}
    >
      <Alert.Indicator />
      <HStack justify="space-between" align="center" w="full" gap="4" wrap="wrap">
        <Stack gap="0">
          <Alert.Title>{T.BANNER(who, formatDateTime(supportSession.endsAt))}</Alert.Title>
          <Text>{T.BANNER_REASON(supportSession.reason)}</Text>
        </Stack>
        <Button
          size="sm"
          variant="subtle"
          colorPalette="gray"
          loading={stopping}
          onClick={() => {
            setStopping(true);
            void stopSupportSession().finally(() => setStopping(false));
          }}
        >
          {T.STOP}
        </Button>
      </HStack>
    </Alert.Root>
  );
}
