import { Inject, Injectable } from '@nestjs/common';
import { createHmac, KeyObject, timingSafeEqual } from 'node:crypto';
import { hmacKey } from '../../platform/crypto/secrets';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { APP_CONFIG } from '../../platform/config/app-config.module';
import { AppConfig } from '../../platform/config/env.validation';
import { AppException } from '../../platform/web/app.exception';
import { FileStore } from '../../platform/files/file-store';
import { DOWNLOAD_LINK_SECONDS } from '../../shared/portal/notifications';
import { ERROR_CODES } from '../../shared/messages';

/**
 * The areas whose files are served through signed links: reports live in the shared file store (every
 * instance serves them); process logs are dropped into DATA_DIR/process-logs/<organisation>/ by the
 * processing systems of the same machine.
 */
export type FileArea = 'reports' | 'process-logs';

/** A file name we store and serve: no path separators, no leading dot, nothing exotic. */
export const SAFE_FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._ ()-]{0,199}$/;

export function isSafeFileName(name: string): boolean {
  return SAFE_FILE_NAME.test(name) && !name.includes('..');
}

/** Makes a safe file name out of what a publisher sent (keeps letters, digits, dot, dash, underscore). */
export function sanitiseFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .replace(/[^A-Za-z0-9._ ()-]+/g, '_')
    .replace(/\.{2,}/g, '.')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 150);
  return cleaned || 'file';
}

/**
 * Download links carried by notifications (spec 001 §9: valid one hour). A link is
 * `/files/<area>/<organisationId>/<name>?expires=<unix seconds>&sig=<HMAC-SHA256>`, signed with a key
 * derived from the JWT secret; the files controller serves it only while the signature holds.
 */
@Injectable()
export class FileLinksService {
  private readonly key: KeyObject;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly files: FileStore,
  ) {
    this.key = hmacKey(createHmac('sha256', hmacKey(config.jwtSecret)).update('notification-file-links').digest());
  }

  /** DATA_DIR/process-logs/<organisationId>/<name>. */
  private processLogPath(organisationId: number, name: string): string {
    return join(this.config.dataDir, 'process-logs', String(organisationId), name);
  }

  private storeKey(organisationId: number, name: string): string {
    return `reports/${organisationId}/${name}`;
  }

  async exists(area: FileArea, organisationId: number, name: string): Promise<boolean> {
    if (!isSafeFileName(name)) return false;
    if (area === 'reports') return this.files.exists(this.storeKey(organisationId, name));
    const path = this.processLogPath(organisationId, name);
    return existsSync(path) && statSync(path).isFile();
  }

  /** The file's bytes, or null when it is gone. */
  async read(area: FileArea, organisationId: number, name: string): Promise<Buffer | null> {
    if (!isSafeFileName(name)) return null;
    if (area === 'reports') return (await this.files.get(this.storeKey(organisationId, name)))?.data ?? null;
    return (await this.exists(area, organisationId, name))
      ? readFileSync(this.processLogPath(organisationId, name))
      : null;
  }

  /** Keeps a report in the shared file store; returns its unsigned reference. */
  async storeReport(organisationId: number, name: string, data: Buffer): Promise<string> {
    await this.files.put(this.storeKey(organisationId, name), data, 'application/octet-stream');
    return this.reference('reports', organisationId, name);
  }

  /** The unsigned reference kept in the database: `/files/<area>/<org>/<name>`. */
  reference(area: FileArea, organisationId: number, name: string): string {
    return `/files/${area}/${organisationId}/${encodeURIComponent(name)}`;
  }

  /** Parses an unsigned or signed reference of ours; null for anything else. */
  parseReference(link: string): { area: FileArea; organisationId: number; name: string } | null {
    const m = /^\/?files\/(reports|process-logs)\/(\d{1,12})\/([^/?#]+)(?:\?.*)?$/.exec(link);
    if (!m) return null;
    let name: string;
    try {
      name = decodeURIComponent(m[3]);
    } catch {
      return null;
    }
    if (!isSafeFileName(name)) return null;
    return { area: m[1] as FileArea, organisationId: Number(m[2]), name };
  }

  /** A link valid for one hour from now. */
  sign(area: FileArea, organisationId: number, name: string, now = Date.now()): string {
    const expires = Math.floor(now / 1000) + DOWNLOAD_LINK_SECONDS;
    return `${this.reference(area, organisationId, name)}?expires=${expires}&sig=${this.signature(area, organisationId, name, expires)}`;
  }

  /** Signs a reference of ours; any other link (an external https URL) is returned as it is. */
  signReference(link: string | undefined, now = Date.now()): string | undefined {
    if (!link) return link;
    const ref = this.parseReference(link);
    return ref ? this.sign(ref.area, ref.organisationId, ref.name, now) : link;
  }

  /** Throws 403 unless the signature is ours and has not expired; answers what the link names. */
  verify(
    area: FileArea,
    organisationIdText: string,
    name: string,
    expiresText: unknown,
    sig: unknown,
    now = Date.now(),
  ): { area: FileArea; organisationId: number; name: string } {
    const refused = (message: string) => AppException.forbidden(message, ERROR_CODES.DOWNLOAD_LINK_INVALID);
    if (!/^\d{1,12}$/.test(organisationIdText) || !isSafeFileName(name))
      throw refused('This download link is not valid.');
    if (typeof expiresText !== 'string' || !/^\d{1,12}$/.test(expiresText) || typeof sig !== 'string')
      throw refused('This download link is not valid.');
    const organisationId = Number(organisationIdText);
    const expires = Number(expiresText);
    const expected = Buffer.from(this.signature(area, organisationId, name, expires));
    const given = Buffer.from(sig);
    if (expected.length !== given.length || !timingSafeEqual(expected, given))
      throw refused('This download link is not valid.');
    if (expires * 1000 <= now) throw refused('This download link has expired.');
    return { area, organisationId, name };
  }

  private signature(area: FileArea, organisationId: number, name: string, expires: number): string {
    return createHmac('sha256', this.key).update(`${area}/${organisationId}/${name}:${expires}`).digest('base64url');
  }
}
