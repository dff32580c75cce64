import { Inject, Injectable } from '@nestjs/common';
import { Resolver } from 'node:dns/promises';
import { APP_CONFIG } from '../../platform/config/app-config.module';
import { AppConfig } from '../../platform/config/env.validation';

/** What a TXT lookup found: the record's values, no record at all, or no answer from DNS. */
export type TxtLookup = { kind: 'found'; values: string[] } | { kind: 'none' } | { kind: 'unavailable' };

/** Answers meaning the name has no TXT record (as opposed to DNS not answering). */
const NO_RECORD = new Set(['ENODATA', 'ENOTFOUND']);

/**
 * TXT lookups through the resolvers DNS_SERVERS names, else the system's. A resolver of its own (c-ares,
 * no cache) rather than dns.lookup: a record published a minute ago is seen at the next Verify.
 */
@Injectable()
export class DnsTxtResolver {
  private readonly resolver = new Resolver({ timeout: 2000, tries: 2 });

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    if (config.dnsServers) this.resolver.setServers(config.dnsServers);
  }

  async txt(name: string): Promise<TxtLookup> {
    try {
      // A TXT record is a list of character strings of up to 255 bytes each; its value is their concatenation.
      const records = await this.resolver.resolveTxt(name);
      return records.length === 0 ? { kind: 'none' } : { kind: 'found', values: records.map((r) => r.join('')) };
    } catch (e) {
      return NO_RECORD.has((e as NodeJS.ErrnoException).code ?? '') ? { kind: 'none' } : { kind: 'unavailable' };
    }
  }
}
