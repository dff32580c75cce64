import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { CacheItem, CacheProvider } from '@node-saml/node-saml';
import { LessThan, MoreThan, Repository } from 'typeorm';
import { isUniqueViolation } from '../../../platform/database/unique-violation';
import { SsoOneTimeValue } from '../entities/sso-one-time.entity';

/** Expired rows are swept at most this often, by whichever instance writes next. */
const SWEEP_MS = 60_000;

/**
 * Single-use values in the database, so that every instance sees the same: the second `claim` of a key fails
 * on the primary key wherever it runs. Used for SAML assertion ids, logout token ids, SAML request ids and OIDC transactions (their state).
 */
@Injectable()
export class OneTimeValues {
  private lastSweep = 0;

  constructor(@InjectRepository(SsoOneTimeValue) private readonly values: Repository<SsoOneTimeValue>) {}

  private async sweep(): Promise<void> {
    const now = Date.now();
    if (now - this.lastSweep < SWEEP_MS) return;
    this.lastSweep = now;
    await this.values.delete({ expiresAt: LessThan(new Date(now)) });
  }

  /** Records `key` until `expiresAt`; false when it was recorded already (a replay). */
  async claim(key: string, expiresAt: Date, value = '1'): Promise<boolean> {
    await this.sweep();
    try {
      await this.values.insert({ key, value, expiresAt });
      return true;
    } catch (e) {
      if (!isUniqueViolation(e)) throw e;
      // A key whose time is over may be claimed again only after the sweep; until then it stays refused.
      return false;
    }
  }

  async get(key: string): Promise<string | null> {
    return (await this.values.findOneBy({ key, expiresAt: MoreThan(new Date()) }))?.value ?? null;
  }

  /** Removes `key`; true when this call removed it (the one caller that may act on it). */
  async take(key: string): Promise<boolean> {
    return ((await this.values.delete({ key })).affected ?? 0) > 0;
  }

  /** node-saml's store of outstanding request ids (InResponseTo), kept here so any instance may receive the answer. */
  samlRequestCache(connectionId: number, lifetimeMs: number): CacheProvider {
    const prefix = `saml-request:${connectionId}:`;
    return {
      saveAsync: async (key: string, value: string): Promise<CacheItem | null> => {
        const claimed = await this.claim(prefix + key, new Date(Date.now() + lifetimeMs), value);
        return claimed ? { value, createdAt: Date.now() } : null;
      },
      getAsync: (key: string) => this.get(prefix + key),
      removeAsync: async (key: string | null) => {
        if (key === null) return null;
        await this.take(prefix + key);
        return key;
      },
    };
  }
}
