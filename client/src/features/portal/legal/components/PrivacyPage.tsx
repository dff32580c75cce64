import { List, Text } from '@chakra-ui/react';
import { LegalLayout, Section } from './LegalLayout';

/** Privacy Policy (spec 001 §2.16): public, no login. */
export function PrivacyPage() {
  return (
    <LegalLayout title="Privacy Policy" updated="22 November 2026">
      <Section title="What we collect">
        <Text>To run the portal for your organisation we collect, about the staff who use it:</Text>
        <List.Root ps="5">
          <List.Item>names (first and last name, and optionally job title, department and location);</List.Item>
          <List.Item>e-mail addresses, which are also the sign-in names;</List.Item>
          <List.Item>
            how often and when the portal is used: sign-in times, session activity and the feedback and messages you
            send us.
          </List.Item>
        </List.Root>
        <Text>
          We do not collect payment card details, and we do not use tracking or advertising cookies. The portal keeps a
          sign-in token in your browser's storage and a session cookie.
        </Text>
      </Section>
      <Section title="How we use it">
        <Text>
          This information is used internally only: to let you sign in and keep your account secure, to enforce your
          organisation's user and session limits, to answer your support requests and feedback, and to understand how
          the portal is used so we can improve it. We do not sell it or share it with third parties for their own
          purposes.
        </Text>
      </Section>
      <Section title="Who can see it">
        <Text>
          Your organisation's administrators see the users of your organisation and their sessions. Our support staff
          see it when helping your organisation. Data of one organisation is never shown to another.
        </Text>
      </Section>
      <Section title="Keeping and correcting it">
        <Text>
          We keep this information while your organisation's subscription lasts and for as long afterwards as the law
          requires. You can see and correct your name in your profile; ask your administrator or use Contact Us for
          anything else, including access to or deletion of your information.
        </Text>
      </Section>
      <Section title="How long we keep it">
        <Text>
          Your organisation chooses how long its audit log is kept, from 30 days to 7 years (one year unless it chooses
          otherwise); older entries are deleted every day. Your sign-in history (times, network addresses and browsers)
          is kept 90 days. On My Security you can download everything the portal keeps about you, and, where your
          organisation allows it, delete your account: your name and e-mail address are then removed everywhere, and the
          audit log keeps its entries with you shown as an erased user.
        </Text>
      </Section>
    </LegalLayout>
  );
}
