import { randomBytes } from 'node:crypto';
import { certificatePem, parseIdpMetadata } from './saml-metadata';

/** A certificate's base64 body as metadata carries it (the parser reads the text, not the DER), made per run. */
const CERT = randomBytes(48).toString('base64');
const metadata = (idp: string, entityId = 'https://sts.windows.net/tenant/') =>
  `<?xml version="1.0"?><EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${entityId}">${idp}</EntityDescriptor>`;
const idp = (inner: string) =>
  `<IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">${inner}</IDPSSODescriptor>`;
const key = (use = 'signing') =>
  `<KeyDescriptor use="${use}"><KeyInfo xmlns="http://www.w3.org/2000/09/xmldsig#"><X509Data><X509Certificate>
    ${CERT}
  </X509Certificate></X509Data></KeyInfo></KeyDescriptor>`;
const sso = (binding = 'HTTP-Redirect', url = 'https://login.example/saml2') =>
  `<SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:${binding}" Location="${url}"/>`;

describe('parseIdpMetadata', () => {
  it('reads the entity id, the HTTP-Redirect SSO and SLO addresses and the signing certificates', () => {
    const slo =
      '<SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://login.example/logout"/>';
    expect(
      parseIdpMetadata(metadata(idp(key() + key('encryption') + slo + sso('HTTP-POST', 'https://post') + sso()))),
    ).toEqual({
      entityId: 'https://sts.windows.net/tenant/',
      ssoUrl: 'https://login.example/saml2',
      sloUrl: 'https://login.example/logout',
      certificates: [CERT],
    });
  });

  it('refuses metadata without what a sign-in needs', () => {
    expect(parseIdpMetadata(metadata(idp(sso())))).toBeNull();
    expect(parseIdpMetadata(metadata(idp(key())))).toBeNull();
    expect(parseIdpMetadata(metadata(idp(key() + sso('HTTP-POST'))))).toBeNull();
    expect(parseIdpMetadata(metadata(idp(key() + sso('HTTP-Redirect', 'javascript:alert(1)'))))).toBeNull();
    expect(parseIdpMetadata(metadata(''))).toBeNull();
    expect(parseIdpMetadata('not xml at all')).toBeNull();
    expect(parseIdpMetadata('')).toBeNull();
  });

  it('resolves no external entity', () => {
    const xxe = `<?xml version="1.0"?><!DOCTYPE e [<!ENTITY x SYSTEM "file:///etc/passwd">]>${metadata(idp(key() + sso('HTTP-Redirect', 'https://a/&x;')))}`;
    const parsed = parseIdpMetadata(xxe);
    expect(JSON.stringify(parsed ?? {})).not.toContain('root:');
  });

  it('writes a certificate as PEM, 64 characters a line', () => {
    expect(certificatePem('A'.repeat(68))).toBe(
      `-----BEGIN CERTIFICATE-----\n${'A'.repeat(64)}\nAAAA\n-----END CERTIFICATE-----\n`,
    );
  });
});
