import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash, generateKeyPairSync, hkdfSync, JsonWebKey } from 'node:crypto';
import { DataSource, IsNull, MoreThan, Or } from 'typeorm';
import { decrypt, encrypt } from '../../platform/crypto/secrets';
import { lockForTransaction } from '../../platform/database/raw-sql';
import { APP_CONFIG } from '../../platform/config/app-config.module';
import { AppConfig } from '../../platform/config/env.validation';
import { OidcSigningKey } from './entities/oidc-signing-key.entity';
import { OIDC_LIFETIMES } from './oidc-lifetimes';

/** The signing algorithm of new keys: ECDSA P-256, asymmetric, small and fast (docs/oidc-provider.md). */
const SIGNING_ALG = 'ES256' as const;

/** The advisory lock under which an instance creates or rotates the signing keys. */
const SIGNING_KEYS_LOCK = 'oidc_signing_keys';

/** A private JWK as the provider's `jwks` takes it. */
export type PrivateJwk = JsonWebKey & { kid: string; alg: string; use: 'sig' };

/** The RFC 7638 thumbprint of a P-256 public key: a key id that names the key itself. */
function thumbprint(jwk: JsonWebKey): string {
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y });
  return createHash('sha256').update(canonical).digest('base64url');
}

function newKey(): { kid: string; jwk: PrivateJwk } {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const raw = privateKey.export({ format: 'jwk' });
  const kid = thumbprint(raw);
  return { kid, jwk: { ...raw, kid, alg: SIGNING_ALG, use: 'sig' } };
}

/**
 * The provider's keys, shared by every instance: signing keys in the database (sealed with the deployment's
 * encryption key), created at the first start under a lock so that two instances starting together make one; and
 * the cookie keys, derived from the same encryption key (every instance of a deployment has it).
 */
@Injectable()
export class OidcKeysService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The keys to publish and sign with, newest (the signing key) first; one is created when there is none. */
  async signingKeys(): Promise<PrivateJwk[]> {
    let rows = await this.published();
    if (!rows.some((r) => r.retiredAt === null)) {
      await this.db.transaction(async (tx) => {
        await lockForTransaction(tx, SIGNING_KEYS_LOCK);
        if ((await tx.getRepository(OidcSigningKey).countBy({ retiredAt: IsNull() })) > 0) return;
        await this.insert(tx.getRepository(OidcSigningKey));
      });
      rows = await this.published();
    }
    return rows.map((r) => JSON.parse(decrypt(r.privateJwkSealed, this.config.encryptionKey)) as PrivateJwk);
  }

  /**
   * A new signing key takes over; the previous ones stay published until every token they signed has expired
   * (the longest-lived signed token, plus the clock tolerance). Answers the new key id and every published one.
   */
  async rotate(): Promise<{ kid: string; publishedKids: string[] }> {
    const kid = await this.db.transaction(async (tx) => {
      await lockForTransaction(tx, SIGNING_KEYS_LOCK);
      const repo = tx.getRepository(OidcSigningKey);
      await repo.update({ retiredAt: IsNull() }, { retiredAt: new Date() });
      return this.insert(repo);
    });
    return { kid, publishedKids: (await this.published()).map((r) => r.kid) };
  }

  /** A fingerprint of the published keys: when it changes, the provider is rebuilt with the new set. */
  async version(): Promise<string> {
    return (await this.published()).map((r) => `${r.kid}:${r.retiredAt ? 'r' : 's'}`).join(',');
  }

  /** The keys oidc-provider signs its cookies with (keygrip: the first signs, all verify). */
  cookieKeys(): string[] {
    return [
      Buffer.from(hkdfSync('sha256', this.config.encryptionKey, '', 'oidc-provider cookies', 32)).toString('base64url'),
    ];
  }

  private async published(): Promise<OidcSigningKey[]> {
    const keptSince = new Date(Date.now() - OIDC_LIFETIMES.RETIRED_KEY_KEPT_SECONDS * 1000);
    return this.db.getRepository(OidcSigningKey).find({
      where: { retiredAt: Or(IsNull(), MoreThan(keptSince)) },
      order: { createdAt: 'DESC' },
    });
  }

  private async insert(repo: ReturnType<DataSource['getRepository']>): Promise<string> {
    const { kid, jwk } = newKey();
    await repo.insert({
      kid,
      alg: SIGNING_ALG,
      privateJwkSealed: encrypt(JSON.stringify(jwk), this.config.encryptionKey),
      createdAt: new Date(Date.now()),
      retiredAt: null,
    });
    return kid;
  }
}
