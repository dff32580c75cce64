import { DOMParser } from '@xmldom/xmldom';
import { randomUUID } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { generate } from 'selfsigned';
import { SignedXml } from 'xml-crypto';

/**
 * A SAML 2.0 identity provider for the tests: its responses are signed by xml-crypto (the signing library
 * node-saml verifies with), with a self-signed key of its own, so the service provider checks real signatures.
 * Each option of `respond` breaks one rule, for the refusals.
 */
export interface TestIdp {
  entityId: string;
  ssoUrl: string;
  sloUrl?: string;
  metadataXml: string;
  /** The AuthnRequest the SP's redirect carries: its id and ACS URL. */
  readRequest(redirectUrl: string): {
    id: string;
    acsUrl: string;
    issuer: string;
    forceAuthn: boolean;
    relayState: string | null;
  };
  respond(options: ResponseOptions): string;
}

export interface ResponseOptions {
  inResponseTo: string;
  acsUrl: string;
  audience: string;
  nameId: string;
  email?: string;
  /** Which element carries the signature; 'none' sends it unsigned. */
  sign?: 'response' | 'assertion' | 'none';
  /** Seconds from now; defaults 5 minutes of validity starting a minute ago. */
  notBefore?: number;
  notOnOrAfter?: number;
  recipient?: string;
  /** The response's Destination: the ACS URL by default; null leaves the attribute out. */
  destination?: string | null;
  assertionId?: string;
  sessionIndex?: string;
  /** Signed by another key than the metadata's. */
  foreignKey?: boolean;
  /** When the person authenticated, in seconds from now (default 0: just now). */
  authnInstant?: number;
}

const SHA256 = 'http://www.w3.org/2001/04/xmlenc#sha256';
const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';

const derOf = (pem: string) => pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
const iso = (secondsFromNow: number) => new Date(Date.now() + secondsFromNow * 1000).toISOString();
const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

function sign(xml: string, element: 'Response' | 'Assertion', key: string, cert: string): string {
  const sig = new SignedXml({
    privateKey: key,
    publicCert: cert,
    signatureAlgorithm: RSA_SHA256,
    canonicalizationAlgorithm: EXC_C14N,
  });
  const target = `/*[local-name(.)='Response']${element === 'Assertion' ? "/*[local-name(.)='Assertion']" : ''}`;
  sig.addReference({ xpath: target, digestAlgorithm: SHA256, transforms: [ENVELOPED, EXC_C14N] });
  sig.computeSignature(xml, { location: { reference: `${target}/*[local-name(.)='Issuer']`, action: 'after' } });
  return sig.getSignedXml();
}

export async function startTestIdp(name = 'idp', withSlo = true): Promise<TestIdp> {
  const own = await generate([{ name: 'commonName', value: `${name}.test` }], { keySize: 2048, algorithm: 'sha256' });
  const foreign = await generate([{ name: 'commonName', value: 'attacker.test' }], {
    keySize: 2048,
    algorithm: 'sha256',
  });
  const entityId = `https://${name}.test/saml`;
  const ssoUrl = `https://${name}.test/saml/sso`;
  const sloUrl = withSlo ? `https://${name}.test/saml/slo` : undefined;
  const metadataXml = `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${entityId}">
  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>${derOf(own.cert)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
    ${sloUrl ? `<md:SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${sloUrl}"/>` : ''}
    <md:NameIDFormat>urn:oasis:names:tc:SAML:2.0:nameid-format:persistent</md:NameIDFormat>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${ssoUrl}/post"/>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${ssoUrl}"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;

  return {
    entityId,
    ssoUrl,
    sloUrl,
    metadataXml,
    readRequest(redirectUrl) {
      const raw = new URL(redirectUrl).searchParams.get('SAMLRequest');
      if (!raw) throw new Error(`no SAMLRequest in ${redirectUrl}`);
      const doc = new DOMParser().parseFromString(inflateRawSync(Buffer.from(raw, 'base64')).toString(), 'text/xml');
      const root = doc.documentElement!;
      const issuer = root.getElementsByTagNameNS('urn:oasis:names:tc:SAML:2.0:assertion', 'Issuer')[0];
      return {
        id: root.getAttribute('ID')!,
        acsUrl: root.getAttribute('AssertionConsumerServiceURL')!,
        forceAuthn: root.getAttribute('ForceAuthn') === 'true',
        relayState: new URL(redirectUrl).searchParams.get('RelayState'),
        issuer: issuer?.textContent ?? '',
      };
    },
    respond(o) {
      const assertionId = o.assertionId ?? `_a${randomUUID()}`;
      const notBefore = iso(o.notBefore ?? -60);
      const notOnOrAfter = iso(o.notOnOrAfter ?? 300);
      const attributes = o.email
        ? `<saml:AttributeStatement><saml:Attribute Name="http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress"><saml:AttributeValue>${escape(o.email)}</saml:AttributeValue></saml:Attribute></saml:AttributeStatement>`
        : '';
      const xml =
        `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r${randomUUID()}" Version="2.0" IssueInstant="${iso(0)}" ${o.destination === null ? '' : `Destination="${escape(o.destination ?? o.acsUrl)}" `}InResponseTo="${escape(o.inResponseTo)}">` +
        `<saml:Issuer>${entityId}</saml:Issuer>` +
        `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
        `<saml:Assertion ID="${assertionId}" Version="2.0" IssueInstant="${iso(0)}">` +
        `<saml:Issuer>${entityId}</saml:Issuer>` +
        `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:2.0:nameid-format:persistent">${escape(o.nameId)}</saml:NameID>` +
        `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData InResponseTo="${escape(o.inResponseTo)}" NotOnOrAfter="${notOnOrAfter}" Recipient="${escape(o.recipient ?? o.acsUrl)}"/></saml:SubjectConfirmation></saml:Subject>` +
        `<saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${notOnOrAfter}"><saml:AudienceRestriction><saml:Audience>${escape(o.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
        `<saml:AuthnStatement AuthnInstant="${iso(o.authnInstant ?? 0)}" SessionIndex="${escape(o.sessionIndex ?? `_s${randomUUID()}`)}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
        attributes +
        `</saml:Assertion></samlp:Response>`;
      const keys = o.foreignKey ? foreign : own;
      const signed =
        o.sign === 'none' ? xml : sign(xml, o.sign === 'response' ? 'Response' : 'Assertion', keys.private, keys.cert);
      return Buffer.from(signed).toString('base64');
    },
  };
}
