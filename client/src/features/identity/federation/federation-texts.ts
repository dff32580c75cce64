/** What the Single Sign-On page tells people. */
export const SSO_PAGE_TEXTS = {
  TITLE: 'Single Sign-On',
  INTRO:
    "Let your people sign in through your organisation's identity provider (Microsoft Entra ID, Okta, ADFS or any OpenID Connect or SAML 2.0 provider). Verify your e-mail domains first: sign-in trusts a provider only for addresses of verified domains.",
  READ_ONLY: 'You can see these settings; a site admin of your organisation can change them.',
  ORGANISATION: 'Organisation',
  OWN_ORGANISATION: 'My organisation',
  LOAD_FAILED: 'These settings could not be loaded.',
  CHANGE_FAILED: 'The change could not be saved.',
  DOMAINS_INTRO:
    'Claim each e-mail domain your people use, publish the TXT record shown in its DNS zone, then verify it. A domain can be verified by one organisation only.',
  NO_DOMAINS: 'No domains yet.',
  TXT_INSTRUCTIONS:
    'Add this TXT record in the DNS zone of the domain (your DNS host, or your DNS team), then press Verify. DNS changes can take a few minutes to appear.',
  DOMAIN_ADDED: (domain: string) => `${domain} added. Publish its TXT record, then verify it.`,
  DOMAIN_VERIFIED: (domain: string) => `${domain} is verified.`,
  DOMAIN_REMOVED: (domain: string) => `${domain} removed.`,
  REMOVE_DOMAIN: (domain: string) => `Remove ${domain}?`,
  REMOVE_VERIFIED_DOMAIN: (domain: string) =>
    `Remove ${domain}? Corporate sign-in stops trusting addresses of this domain at once.`,
  CONNECTIONS_INTRO:
    'Each connection is one identity provider. Register the URLs shown with your provider, test the connection, then enable it.',
  NO_CONNECTIONS: 'No connections yet.',
  CONNECTION_ADDED: (name: string) => `${name} added. Register the URLs shown with your provider, then enable it.`,
  CONNECTION_SAVED: (name: string) => `${name} saved.`,
  CONNECTION_REMOVED: (name: string) => `${name} removed.`,
  REMOVE_CONNECTION: (name: string) =>
    `Remove ${name}? People who sign in through it will need another way to sign in.`,
  NAME_REQUIRED: 'Enter a name people will recognise, e.g. "Contoso Entra ID".',
  ISSUER_REQUIRED: 'Enter the issuer URL, e.g. https://login.microsoftonline.com/<tenant>/v2.0.',
  CLIENT_ID_REQUIRED: 'Enter the client (application) id.',
  CLIENT_SECRET_REQUIRED: 'Enter the client secret.',
  METADATA_REQUIRED: "Paste the identity provider's SAML metadata XML, or load it from a file.",
  METADATA_TOO_LONG: 'This metadata is too long.',
  NO_DEFAULT_ROLE: 'Standard Admin (the default)',
  TEST_INTRO:
    'Test connection signs in through the provider (as yourself or a test user) and shows what it sent and what a real sign-in would do, without signing anyone in or changing any account. It works before the connection is enabled.',
  TEST_START_FAILED: 'The test could not be started.',
  TEST_LOAD_FAILED: 'The test result could not be loaded.',
  TEST_TITLES: {
    SIGNS_IN: 'The connection works',
    CREATES_ACCOUNT: 'The connection works',
    REFUSED: 'The provider answered, but this sign-in would be refused',
    FAILED: 'The test did not succeed',
  },
  TEST_CLAIMS: 'What the provider sent',
  TEST_DETAIL: 'Reason',
} as const;
