import { Heading, Stack } from '@chakra-ui/react';
import { LogoUploader } from '@/features/administration/logo';
import { ContactForm } from './ContactForm';

/** Spec 001 §2.11 (users/billing): the primary contact, the billing contact and the logo uploader. */
export function BillingPage() {
  return (
    <Stack gap="6" maxW="4xl" data-testid="billing-page">
      <Heading as="h1" size="xl">
        Billing
      </Heading>
      <ContactForm kind="primary" title="Primary Contact" />
      <ContactForm kind="billing" title="Billing Contact" />
      <LogoUploader />
    </Stack>
  );
}
