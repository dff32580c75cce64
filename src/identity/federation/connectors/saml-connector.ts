import { Inject, Injectable, Logger } from '@nestjs/common';
import { Profile, SAML, ValidateInResponseTo } from '@node-saml/node-saml';
import { DOMParser } from '@xmldom/xmldom';
import { AppException } from '../../../platform/web/app.exception';
import { APP_CONFIG } from '../../../platform/config/app-config.module';
import { AppConfig } from '../../../platform/config/env.validation';
import { ERROR_CODES } from '../../../shared/messages';
import { SSO_MESSAGES } from '../../../shared/identity/sso';
import { SsoConnection } from '../entities/sso-connection.entity';
import { OneTimeValues } from '../round-trip/one-time-values';
import { certificatePem } from './saml-metadata';
import { ssoUrls } from '../round-trip/sso-urls';
import { ProviderRefusal } from './provider-refusal';

/** Clocks of the IdP and of this server may differ this much; more is refused. */
const CLOCK_SKEW_MS = 60_000;
/** How long a sign-in at the IdP may take, from our request to its answer. */
const REQUEST_LIFETIME_MS = 10 * 60_000;
/** An assertion without an end of validity is kept this long for the replay check (and refused later by age). */
const MAX_ASSERTION_AGE_MS = 10 * 60_000;

/** Claims of the person as Entra ID, ADFS and Okta name them. */
const EMAIL_CLAIMS = [
  'email',
  'mail',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
  'urn:oid:0.9.2342.19200300.100.1.3',
];
const GIVEN_NAME_CLAIMS = ['givenName', 'firstName', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname'];
const SURNAME_CLAIMS = ['sn', 'surname', 'lastName', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname'];
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
const XMLDSIG = 'http://www.w3.org/2000/09/xmldsig#';

export interface SamlIdentity {
  subject: string;
  nameIdFormat: string | null;
  sessionIndex: string | null;
  /** When the IdP authenticated the person (AuthnStatement/@AuthnInstant), if it says. */
  authnInstant: Date | null;
  email?: string;
  firstName?: string;
  lastName?: string;
  /** The NameID, the session and every attribute the IdP sent, for a connection test to show. */
  claims: Record<string, unknown>;
}

/** The profile's data without node-saml's accessors and its duplicate `attributes` map. */
function claimsOf(profile: Profile, authnInstant: string | undefined): Record<string, unknown> {
  const claims: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(profile))
    if (typeof value !== 'function' && name !== 'attributes') claims[name] = value;
  if (authnInstant) claims.AuthnInstant = authnInstant;
  return claims;
}

function first(profile: Profile, names: string[]): string | undefined {
  for (const n of names) {
    const v = profile[n];
    const s = Array.isArray(v) ? v[0] : v;
    if (typeof s === 'string' && s.trim()) return s.trim();
  }
  return undefined;
}

type XmlNode = { $?: Record<string, string>; [child: string]: unknown };
const nodes = (parent: XmlNode | undefined, name: string): XmlNode[] => (parent?.[name] as XmlNode[] | undefined) ?? [];

/**
 * SAML 2.0 per connection through @node-saml/node-saml: SP-initiated sign-in with an HTTP-Redirect AuthnRequest
 * and the HTTP-POST answer. The library checks the signature (of the response or of the assertion, one is
 * required), InResponseTo, the validity window and the audience; this class adds the recipient, the destination,
 * the issuer and the one use of each assertion across instances.
 */
@Injectable()
export class SamlConnector {
  private readonly logger = new Logger('SAML');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly once: OneTimeValues,
  ) {}

  private saml(c: SsoConnection, forceAuthn = false): SAML {
    const urls = ssoUrls(this.config.publicUrl, c.id);
    return new SAML({
      entryPoint: c.samlSsoUrl!,
      issuer: urls.spEntityId,
      callbackUrl: urls.acs,
      audience: urls.spEntityId,
      idpCert: (c.samlCertificates ?? []).map(certificatePem),
      idpIssuer: c.samlEntityId!,
      wantAuthnResponseSigned: false,
      wantAssertionsSigned: false,
      validateInResponseTo: ValidateInResponseTo.always,
      requestIdExpirationPeriodMs: REQUEST_LIFETIME_MS,
      cacheProvider: this.once.samlRequestCache(c.id, REQUEST_LIFETIME_MS),
      acceptedClockSkewMs: CLOCK_SKEW_MS,
      maxAssertionAgeMs: MAX_ASSERTION_AGE_MS,
      identifierFormat: null,
      disableRequestedAuthnContext: true,
      logoutUrl: c.samlSloUrl ?? undefined,
      logoutCallbackUrl: urls.slo,
      signatureAlgorithm: 'sha256',
      forceAuthn,
    });
  }

  /**
   * The IdP's address with a new AuthnRequest (its id kept for InResponseTo). `forceAuthn` asks the IdP to
   * authenticate the person again whatever session it holds; `relayState` comes back with its answer.
   */
  async start(
    c: SsoConnection,
    loginHint?: string,
    { forceAuthn = false, relayState = '' }: { forceAuthn?: boolean; relayState?: string } = {},
  ): Promise<string> {
    return this.saml(c, forceAuthn).getAuthorizeUrlAsync(relayState, undefined, {
      ...(loginHint ? { additionalParams: { login_hint: loginHint } } : {}),
    });
  }

  /** This SP's metadata for the IdP's administrator: entity id, ACS and SLO endpoints. */
  metadata(c: SsoConnection): string {
    return this.saml(c).generateServiceProviderMetadata(null, null);
  }

  private refused(c: SsoConnection, why: string): ProviderRefusal {
    this.logger.warn(`SAML response refused: connection ${c.id}: ${why}`);
    return new ProviderRefusal(why);
  }

  async acs(c: SsoConnection, samlResponse: string): Promise<SamlIdentity> {
    const urls = ssoUrls(this.config.publicUrl, c.id);
    let profile: Profile | null;
    try {
      ({ profile } = await this.saml(c).validatePostResponseAsync({ SAMLResponse: samlResponse }));
    } catch (e) {
      throw this.refused(c, (e as Error).message);
    }
    if (!profile?.getAssertion) throw this.refused(c, 'The response carries no assertion.');
    if (profile.issuer !== c.samlEntityId)
      throw this.refused(c, `The issuer ${profile.issuer} is not this connection's identity provider.`);
    const assertion = (profile.getAssertion() as { Assertion?: XmlNode }).Assertion;
    // Recipient: the bearer confirmation must name this ACS (node-saml checks its time, not its address).
    const confirmations = nodes(assertion, 'Subject').flatMap((s) => nodes(s, 'SubjectConfirmation'));
    const data = confirmations.flatMap((s) => nodes(s, 'SubjectConfirmationData'));
    if (data.length === 0 || data.some((d) => d.$?.Recipient !== urls.acs))
      throw this.refused(c, "The assertion's Recipient is not this connection's ACS URL.");
    // Destination (docs/decisions/saml-destination.md): required when the response itself is signed, and always
    // this ACS when present; an assertion-only signature may leave it out, its Recipient being checked above.
    const { destination, responseSigned } = this.envelope(profile);
    if (destination === null && responseSigned) throw this.refused(c, 'The signed response has no Destination.');
    if (destination !== null && destination !== urls.acs)
      throw this.refused(c, "The response's Destination is not this connection's ACS URL.");
    const id = assertion?.$?.ID;
    if (!id) throw this.refused(c, 'The assertion has no ID.');
    const notOnOrAfter = nodes(assertion, 'Conditions')[0]?.$?.NotOnOrAfter;
    const until = Math.min(
      notOnOrAfter ? Date.parse(notOnOrAfter) + CLOCK_SKEW_MS : Infinity,
      Date.now() + MAX_ASSERTION_AGE_MS + CLOCK_SKEW_MS,
    );
    if (!(await this.once.claim(`saml-assertion:${c.id}:${id}`, new Date(until))))
      throw AppException.unauthorized(SSO_MESSAGES.REPLAYED, ERROR_CODES.SSO_FAILED);
    const nameId = profile.nameID;
    const email =
      first(profile, EMAIL_CLAIMS) ??
      (profile.nameIDFormat === EMAIL_FORMAT || /^[^@\s]+@[^@\s]+$/.test(nameId) ? nameId : undefined);
    const instant = nodes(assertion, 'AuthnStatement')[0]?.$?.AuthnInstant;
    const authnInstant = instant && !Number.isNaN(Date.parse(instant)) ? new Date(instant) : null;
    return {
      subject: nameId,
      nameIdFormat: profile.nameIDFormat ?? null,
      authnInstant,
      sessionIndex: typeof profile.sessionIndex === 'string' ? profile.sessionIndex : null,
      email: email?.toLowerCase(),
      firstName: first(profile, GIVEN_NAME_CLAIMS),
      lastName: first(profile, SURNAME_CLAIMS),
      claims: claimsOf(profile, instant),
    };
  }

  /** The response's Destination, and whether the response element itself carries a signature. */
  private envelope(profile: Profile): { destination: string | null; responseSigned: boolean } {
    const xml = profile.getSamlResponseXml?.();
    if (!xml) return { destination: null, responseSigned: false };
    try {
      const root = new DOMParser({ onError: () => undefined }).parseFromString(xml, 'text/xml').documentElement;
      const children = Array.from(root?.childNodes ?? []) as Array<{ namespaceURI?: string; localName?: string }>;
      return {
        destination: root?.getAttribute('Destination') || null,
        responseSigned: children.some((n) => n.namespaceURI === XMLDSIG && n.localName === 'Signature'),
      };
    } catch {
      return { destination: null, responseSigned: false };
    }
  }

  /** The IdP's single logout URL with a LogoutRequest for this session, or null when it offers none. */
  async logoutUrl(
    c: SsoConnection,
    session: { subject: string; nameIdFormat: string | null; providerSessionId: string | null },
  ): Promise<string | null> {
    if (!c.samlSloUrl) return null;
    return this.saml(c).getLogoutUrlAsync(
      {
        issuer: c.samlEntityId!,
        nameID: session.subject,
        nameIDFormat: session.nameIdFormat ?? 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
        ...(session.providerSessionId ? { sessionIndex: session.providerSessionId } : {}),
      },
      '',
      {},
    );
  }
}
