import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';
import { createHash, generateKeyPairSync, KeyObject, randomBytes, sign } from 'node:crypto';

/**
 * A software WebAuthn authenticator for the server e2e tests: an ES256 key pair per credential,
 * attestation 'none' and assertions built by hand as an authenticator and a browser would. The browser tests
 * use Chromium's virtual authenticator instead.
 */
export interface SoftCredential {
  id: string;
  privateKey: KeyObject;
  x: Buffer;
  y: Buffer;
  counter: number;
  /** The user handle the server gave at registration (base64url). */
  userHandle: string;
}

export interface Ceremony {
  /** The origin the "browser" reports; default the relying party's. */
  origin?: string;
  /** The RP id whose hash goes into the authenticator data; default the one of the options. */
  rpId?: string;
  userVerified?: boolean;
  /** Override the counter the authenticator reports (default: one more than the last). */
  counter?: number;
  /** Answer with another challenge than the options' (replay of an older one). */
  challenge?: string;
  /** Leave the user handle out (as a non-discoverable assertion may). */
  noUserHandle?: boolean;
}

const b64url = (b: Buffer | Uint8Array) => isoBase64URL.fromBuffer(new Uint8Array(b));
const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest();

function flags(userVerified: boolean, attested: boolean): number {
  return 0x01 | (userVerified ? 0x04 : 0) | (attested ? 0x40 : 0);
}

function counterBytes(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}

export class SoftAuthenticator {
  readonly credentials: SoftCredential[] = [];
  constructor(readonly origin: string) {}

  /** Answers registration options (POST /mfa/passkeys/registration-options) with a new credential. */
  register(
    options: { challenge: string; rp: { id?: string }; user: { id: string } },
    ceremony: Ceremony = {},
  ): { response: Record<string, unknown>; credential: SoftCredential } {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const credential: SoftCredential = {
      id: b64url(randomBytes(32)),
      privateKey,
      x: Buffer.from(jwk.x!, 'base64url'),
      y: Buffer.from(jwk.y!, 'base64url'),
      counter: 0,
      userHandle: options.user.id,
    };
    const cose = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, new Uint8Array(credential.x)],
        [-3, new Uint8Array(credential.y)],
      ]),
    );
    const rawId = Buffer.from(credential.id, 'base64url');
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(rawId.length);
    const authData = Buffer.concat([
      sha256(ceremony.rpId ?? options.rp.id ?? new URL(this.origin).hostname),
      Buffer.from([flags(ceremony.userVerified ?? true, true)]),
      counterBytes(0),
      Buffer.alloc(16),
      idLength,
      rawId,
      Buffer.from(cose),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', new Uint8Array(authData)],
      ]) as never,
    );
    const clientData = JSON.stringify({
      type: 'webauthn.create',
      challenge: ceremony.challenge ?? options.challenge,
      origin: ceremony.origin ?? this.origin,
      crossOrigin: false,
    });
    this.credentials.push(credential);
    return {
      credential,
      response: {
        id: credential.id,
        rawId: credential.id,
        type: 'public-key',
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
        response: {
          clientDataJSON: b64url(Buffer.from(clientData)),
          attestationObject: b64url(attestationObject),
          transports: ['internal'],
        },
      },
    };
  }

  /** Answers authentication options (POST /auth/passkey/options) with `credential` (default: the first allowed, or the first of this authenticator). */
  assert(
    options: { challenge: string; rpId?: string; allowCredentials?: Array<{ id: string }> },
    ceremony: Ceremony & { credential?: SoftCredential } = {},
  ): Record<string, unknown> {
    const credential =
      ceremony.credential ??
      (options.allowCredentials?.length
        ? this.credentials.find((c) => options.allowCredentials!.some((a) => a.id === c.id))
        : this.credentials[0]);
    if (!credential) throw new Error('no credential of this authenticator answers these options');
    credential.counter = ceremony.counter ?? credential.counter + 1;
    const authData = Buffer.concat([
      sha256(ceremony.rpId ?? options.rpId ?? new URL(this.origin).hostname),
      Buffer.from([flags(ceremony.userVerified ?? true, false)]),
      counterBytes(credential.counter),
    ]);
    const clientData = Buffer.from(
      JSON.stringify({
        type: 'webauthn.get',
        challenge: ceremony.challenge ?? options.challenge,
        origin: ceremony.origin ?? this.origin,
        crossOrigin: false,
      }),
    );
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientData)]), credential.privateKey);
    return {
      id: credential.id,
      rawId: credential.id,
      type: 'public-key',
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
      response: {
        clientDataJSON: b64url(clientData),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        ...(ceremony.noUserHandle ? {} : { userHandle: credential.userHandle }),
      },
    };
  }
}
