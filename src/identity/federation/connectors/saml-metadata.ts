import { DOMParser, Element } from '@xmldom/xmldom';

const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DS = 'http://www.w3.org/2000/09/xmldsig#';
const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

/** What a sign-in needs of an identity provider's SAML 2.0 metadata. */
export interface IdpMetadata {
  entityId: string;
  ssoUrl: string;
  sloUrl: string | null;
  /** Signing certificates, base64 DER. */
  certificates: string[];
}

function children(parent: Element, ns: string, name: string): Element[] {
  return Array.from(parent.getElementsByTagNameNS(ns, name));
}

function httpUrl(value: string | null): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * Reads the IdP part of SAML 2.0 metadata (Entra ID, Okta and ADFS all publish one EntityDescriptor), or null
 * when it lacks what a sign-in needs. No DTD or entity is resolved: the parser of @xmldom does neither.
 */
export function parseIdpMetadata(xml: string): IdpMetadata | null {
  let root: Element | null;
  try {
    root = new DOMParser({ onError: () => undefined }).parseFromString(xml, 'text/xml').documentElement;
  } catch {
    return null;
  }
  if (!root) return null;
  const entity =
    root.localName === 'EntityDescriptor' && root.namespaceURI === MD
      ? root
      : children(root, MD, 'EntityDescriptor')[0];
  const idp = entity && children(entity, MD, 'IDPSSODescriptor')[0];
  const entityId = entity?.getAttribute('entityID');
  if (!idp || !entityId) return null;
  const byBinding = (name: string) =>
    httpUrl(
      children(idp, MD, name)
        .find((e) => e.getAttribute('Binding') === REDIRECT)
        ?.getAttribute('Location') ?? null,
    );
  const ssoUrl = byBinding('SingleSignOnService');
  const certificates = children(idp, MD, 'KeyDescriptor')
    .filter((k) => !k.getAttribute('use') || k.getAttribute('use') === 'signing')
    .flatMap((k) => children(k, DS, 'X509Certificate'))
    .map((c) => (c.textContent ?? '').replace(/\s+/g, ''))
    .filter((c) => /^[A-Za-z0-9+/]+=*$/.test(c));
  if (!ssoUrl || certificates.length === 0 || entityId.length > 500) return null;
  return { entityId, ssoUrl, sloUrl: byBinding('SingleLogoutService'), certificates: [...new Set(certificates)] };
}

/** A base64 DER certificate as PEM, as node-saml takes it. */
export function certificatePem(der: string): string {
  return `-----BEGIN CERTIFICATE-----\n${der.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;
}
