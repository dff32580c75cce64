import { Inject, Injectable, Logger } from '@nestjs/common';
import { hash } from 'node:crypto';
import { AppException } from '../../platform/web/app.exception';
import { APP_CONFIG } from '../../platform/config/app-config.module';
import { AppConfig } from '../../platform/config/env.validation';
import { ERROR_CODES, SECURITY_MESSAGES } from '../../shared/messages';

/**
 * The shortest word that, followed only by digits and symbols, still counts as the listed password it starts with
 * (a listed word with digits or symbols appended is the listed word, as cracking rules try it). Shorter stems would
 * refuse too much.
 */
const SUFFIXED_STEM_MIN = 6;

let offlineList: ReadonlySet<string> | undefined;
/** The offline corpus, lower-cased: read on first use, so a start that sets no password pays nothing for it. */
function offline(): ReadonlySet<string> {
  if (!offlineList) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded lazily on purpose (see above)
    const { dictionary } = require('@zxcvbn-ts/language-common') as {
      dictionary: Record<'passwords-common', string[]>;
    };
    offlineList = new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));
  }
  return offlineList;
}

/** Whether the offline corpus holds the password, ignoring case, or its stem before a run of digits and symbols. */
export function inOfflineList(password: string): boolean {
  const list = offline();
  const lower = password.toLowerCase();
  if (list.has(lower)) return true;
  const stem = lower.replace(/[^\p{L}]+$/u, '');
  return stem.length >= SUFFIXED_STEM_MIN && stem !== lower && list.has(stem);
}

/**
 * Refuses a new password found in a breached-password corpus (docs/product-rules.md §7, NIST SP 800-63B 3.1.1.2): the offline list
 * shipped with the product, then, when PWNED_PASSWORDS_URL is set, the k-anonymity range API, to which only the first
 * five hex characters of the password's SHA-1 are sent. A range API that is slow, down or answers nonsense never
 * blocks the change: the offline list has decided, and the fallback is logged.
 */
@Injectable()
export class BreachedPasswordsService {
  private readonly logger = new Logger('BreachedPasswords');

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** Whether the password is known breached (offline list, then the range API when configured). */
  async isBreached(password: string): Promise<boolean> {
    if (inOfflineList(password)) return true;
    const base = this.config.pwnedPasswordsUrl;
    if (!base) return false;
    const sha1 = hash('sha1', password, 'hex').toUpperCase();
    try {
      return await this.inRange(base, sha1.slice(0, 5), sha1.slice(5));
    } catch (e) {
      this.logger.warn(
        `The breached-password range API could not be used (${(e as Error).message}); the offline list decided alone`,
      );
      return false;
    }
  }

  /** 400 PASSWORD_BREACHED when the password is known breached; `field` names the request's field, for the form. */
  async assertNotBreached(password: string, field: string): Promise<void> {
    if (await this.isBreached(password))
      throw AppException.badRequest(SECURITY_MESSAGES.PASSWORD_BREACHED, ERROR_CODES.PASSWORD_BREACHED, {
        errors: [{ field, message: SECURITY_MESSAGES.PASSWORD_BREACHED }],
      });
  }

  private async inRange(base: string, prefix: string, suffix: string): Promise<boolean> {
    const res = await fetch(`${base}/range/${prefix}`, {
      // Padding makes every answer about the same size, so its length tells an observer nothing of the prefix.
      headers: { 'Add-Padding': 'true' },
      signal: AbortSignal.timeout(this.config.pwnedPasswordsTimeoutMs),
      redirect: 'error',
    });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const body = await res.text();
    if (!/^[0-9A-F]{35}:\d+\r?$/im.test(body)) throw new Error('the answer is not a range of hash suffixes');
    for (const line of body.split('\n')) {
      const [lineSuffix, count] = line.trim().split(':');
      // Padding lines carry a count of 0.
      if (lineSuffix?.toUpperCase() === suffix && Number(count) > 0) return true;
    }
    return false;
  }
}
