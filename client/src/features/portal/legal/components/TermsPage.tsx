import { Text } from '@chakra-ui/react';
import { LegalLayout, Section } from './LegalLayout';

/** Terms and Conditions (spec 001 §2.16): public, no login. */
export function TermsPage() {
  return (
    <LegalLayout title="Terms and Conditions" updated="22 November 2026">
      <Section title="1. Who we are and what these terms cover">
        <Text>
          The Tax Portal is owned and operated by its publisher (“we”, “us”, “the owner company”). These terms govern
          every use of the portal, its corporate actions and capital gains tax data, its reports and its support
          services by the organisations that subscribe to it and by their staff (“you”). By ticking “I agree to the
          Terms and Conditions” when you log in, you accept these terms on your own behalf and on behalf of your
          organisation.
        </Text>
      </Section>
      <Section title="2. Content ownership">
        <Text>
          The portal, its software, its design and the corporate actions data, calculations, reports and documents it
          provides are owned by us or our licensors and are protected by copyright and database rights. Your
          organisation receives a non-exclusive, non-transferable licence to use them for its internal business while
          its subscription lasts. You may not resell, republish or redistribute them, or use them to build a competing
          product.
        </Text>
        <Text>
          Data your organisation enters or uploads (portfolios, transactions, contacts, logos) remains yours; you give
          us the right to store and process it to provide the service.
        </Text>
      </Section>
      <Section title="3. Access">
        <Text>
          Access is granted per user by your organisation's site administrator, within the number of users and
          concurrent sessions your subscription allows. Keep your password and your multi-factor authentication device
          to yourself; you are responsible for what is done with your account. We may suspend or end access that
          breaches these terms or threatens the security of the portal, and your administrator may disable your account
          or end your sessions at any time.
        </Text>
      </Section>
      <Section title="4. Disclaimer">
        <Text>
          The portal and its data are provided “as is”. We take care to keep corporate actions data accurate and up to
          date, but data from registries, issuers and other third parties may contain errors or arrive late, and the
          service may at times be unavailable. To the extent the law allows, we exclude all warranties and are not
          liable for any indirect or consequential loss arising from use of the portal.
        </Text>
      </Section>
      <Section title="5. Indemnity">
        <Text>
          Your organisation indemnifies us against claims, losses and costs arising from its or its users' breach of
          these terms, from data it enters or uploads, or from its use of the portal's outputs in dealings with its own
          clients.
        </Text>
      </Section>
      <Section title="6. No investment or tax advice">
        <Text>
          Nothing in the portal, its reports or its support communications is investment, financial, legal or tax
          advice. Calculations are tools to assist qualified professionals, who remain responsible for checking them and
          for the advice and returns they prepare.
        </Text>
      </Section>
      <Section title="7. Changes and contact">
        <Text>
          We may change these terms; the date above shows the current version, and continued use after a change means
          you accept it. Questions: use Contact Us in the profile menu.
        </Text>
      </Section>
    </LegalLayout>
  );
}
