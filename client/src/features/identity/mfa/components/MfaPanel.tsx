import { useState } from 'react';
import { Badge, Button, Card, Heading, HStack, Text } from '@chakra-ui/react';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { useAuth } from '@/lib/auth';
import { MessageDialog } from '@/components/ui/message-dialog';
import { MFA_TEXTS } from '../mfa-texts';
import { DisableMfaDialog } from './DisableMfaDialog';
import { EnableMfaDialog } from './EnableMfaDialog';
import { RecoveryCodesDialog } from './RecoveryCodesDialog';
import { RecoveryCodesSection } from './RecoveryCodesSection';
import { TrustedDevicesSection } from './TrustedDevicesSection';

type Step = 'idle' | 'enable' | 'confirm-disable' | 'disable' | 'enabled-alert' | 'disabled-alert';

/** Spec 000 §2 'MFA panel': the status and the button that follows it; any change logs the user out (§4). */
export function MfaPanel({ isMFAEnabled }: { isMFAEnabled: boolean }) {
  const { signOut } = useAuth();
  const [step, setStep] = useState<Step>('idle');
  // The codes of a completed enrolment, shown once before the alert and logout.
  const [newCodes, setNewCodes] = useState<string[] | null>(null);
  const logout = () => void signOut(MFA_TEXTS.LOGOUT_REASON);

  return (
    <Card.Root data-testid="mfa-panel">
      <Card.Header>
        <Heading size="md">Multi-Factor Authentication</Heading>
      </Card.Header>
      <Card.Body>
        <HStack justify="space-between">
          <HStack>
            <Text>Status:</Text>
            <Badge colorPalette={isMFAEnabled ? 'green' : 'gray'} data-testid="mfa-status">
              {isMFAEnabled ? 'Enabled' : 'Disabled'}
            </Badge>
          </HStack>
          {isMFAEnabled ? (
            <Button size="sm" colorPalette="red" variant="outline" onClick={() => setStep('confirm-disable')}>
              Disable
            </Button>
          ) : (
            <Button size="sm" colorPalette="blue" onClick={() => setStep('enable')}>
              Enable
            </Button>
          )}
        </HStack>
        {isMFAEnabled && <RecoveryCodesSection />}
        {isMFAEnabled && <TrustedDevicesSection />}
      </Card.Body>
      <EnableMfaDialog
        open={step === 'enable'}
        onClose={() => setStep('idle')}
        onEnabled={(codes) => (codes?.length ? (setNewCodes(codes), setStep('idle')) : setStep('enabled-alert'))}
      />
      <RecoveryCodesDialog codes={newCodes} onDone={() => (setNewCodes(null), setStep('enabled-alert'))} />
      <ConfirmDialog
        open={step === 'confirm-disable'}
        message={MFA_TEXTS.CONFIRM_DISABLE}
        onConfirm={() => setStep('disable')}
        onClose={() => setStep('idle')}
      />
      <DisableMfaDialog
        open={step === 'disable'}
        onClose={() => setStep('idle')}
        onDisabled={() => setStep('disabled-alert')}
      />
      <MessageDialog
        open={step === 'enabled-alert'}
        title="MFA enabled"
        message={MFA_TEXTS.ENABLED_ALERT}
        onClose={logout}
      />
      <MessageDialog
        open={step === 'disabled-alert'}
        title="MFA disabled"
        message={MFA_TEXTS.DISABLED_ALERT}
        onClose={logout}
      />
    </Card.Root>
  );
}
