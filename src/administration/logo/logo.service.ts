import { HttpStatus, Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { In, IsNull, LessThan, MoreThan, Not, Repository } from 'typeorm';
import { AuditService } from '../../platform/audit';
import { AppException } from '../../platform/web/app.exception';
import { runPeriodically } from '../../platform/jobs/periodic';
import { RequestContext } from '../../platform/web/request-context';
import { AuthUser } from '../../platform/web/auth-user';
import { APP_CONFIG } from '../../platform/config/app-config.module';
import { AppConfig } from '../../platform/config/env.validation';
import { FileStore } from '../../platform/files/file-store';
import { Organisation } from '../../platform/database/entities/organisation.entity';
import { LogoInfo, LogoUploadUrl } from '../../shared/api-types';
import { LIMITS } from '../../shared/limits';
import {
  LOGO_UPLOAD_URL_SECONDS,
  LogoMimeType,
  ORG_ADMIN_MESSAGES as M,
} from '../../shared/administration/organisation-admin';
import { LOGO_PATH_PATTERN, LogoUploadUrlDto } from './dto/logo.dto';
import { LogoUpload } from './entities/logo-upload.entity';
import { detectImageType, EXTENSION_BY_TYPE, TYPE_BY_EXTENSION } from './image-type';
import { UploadUrlSigner } from './upload-url-signer';
import { ERROR_CODES } from '../../shared/messages';

export const LOGO_FILES_PREFIX = '/files/logos/';
export const LOGO_UPLOAD_PREFIX = '/api/logo/upload/';
const STORED_NAME = /^[a-f0-9]{32}\.(png|jpg|gif|webp)$/;

const HOUR_MS = 60 * 60 * 1000;
/** An upload not saved as the logo within a day of its URL's expiry is removed: its file and its record. */
export const UNSAVED_LOGO_HOURS = 24;
/** Saving takes uploads up to an hour younger than that, so a save never races the sweep for one file. */
const SAVE_WITHIN_HOURS = UNSAVED_LOGO_HOURS - 1;
const SWEEP_BATCH = 500;

/**
 * The organisation logo (spec 001 §4 'Logo upload'): a signed single-use upload URL on this server,
 * the upload itself (accepted only for a real raster image of at most 10 MB), saving it as the
 * organisation's logo, and serving the files.
 */
@Injectable()
export class LogoService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Logo');
  private readonly signer: UploadUrlSigner;
  private stopSweep?: () => void;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @InjectRepository(LogoUpload) private readonly uploads: Repository<LogoUpload>,
    @InjectRepository(Organisation) private readonly organisations: Repository<Organisation>,
    private readonly files: FileStore,
    private readonly audit: AuditService,
  ) {
    this.signer = new UploadUrlSigner(config.jwtSecret);
  }

  /** The sweep of unsaved uploads: a minute after start, then hourly (a plain unref'd timer, on every instance). */
  onApplicationBootstrap(): void {
    this.stopSweep = runPeriodically(() => this.sweepUnsaved(), {
      firstDelayMs: 60_000,
      everyMs: HOUR_MS,
      logger: this.logger,
      what: 'Logo upload sweep',
    });
  }

  onApplicationShutdown(): void {
    this.stopSweep?.();
    this.stopSweep = undefined;
  }

  /**
   * Removes what uploads left that never became a logo: the files of uploads whose URL expired more than
   * UNSAVED_LOGO_HOURS ago and that no organisation shows, and the records of all such uploads (a saved logo's
   * file stays). Idempotent, so instances may sweep at the same time. Returns how many files went.
   */
  async sweepUnsaved(now = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - UNSAVED_LOGO_HOURS * HOUR_MS);
    let removed = 0;
    for (;;) {
      const stale = await this.uploads.find({ where: { expiresAt: LessThan(cutoff) }, take: SWEEP_BATCH });
      if (stale.length === 0) break;
      const paths = stale.map((u) => `${LOGO_FILES_PREFIX}${u.storedName}`);
      const shown = new Set(
        (await this.organisations.find({ select: { id: true, logoPath: true }, where: { logoPath: In(paths) } })).map(
          (o) => o.logoPath,
        ),
      );
      for (const u of stale) {
        if (!u.usedAt || shown.has(`${LOGO_FILES_PREFIX}${u.storedName}`)) continue;
        await this.files.delete(fileKey(u.storedName));
        removed++;
      }
      await this.uploads.delete({ nonce: In(stale.map((u) => u.nonce)) });
      if (stale.length < SWEEP_BATCH) break;
    }
    if (removed > 0) this.logger.log(`Removed ${removed} logo upload(s) never saved`);
    return removed;
  }

  async read(caller: AuthUser): Promise<LogoInfo> {
    const org = await this.organisations.findOneBy({ id: caller.organisationId });
    return { logoPath: org?.logoPath ?? null };
  }

  async uploadUrl(caller: AuthUser, dto: LogoUploadUrlDto, now = new Date()): Promise<LogoUploadUrl> {
    const nonce = randomBytes(24).toString('base64url');
    const storedName = `${randomBytes(16).toString('hex')}.${EXTENSION_BY_TYPE[dto.mimeType as LogoMimeType]}`;
    const expiresAt = new Date(now.getTime() + LOGO_UPLOAD_URL_SECONDS * 1000);
    await this.uploads.insert({ nonce, organisationId: caller.organisationId, storedName, expiresAt, usedAt: null });
    const token = this.signer.sign({
      n: nonce,
      o: caller.organisationId,
      f: dto.fileName,
      s: dto.fileSize,
      t: dto.mimeType,
      p: storedName,
      e: Math.floor(expiresAt.getTime() / 1000),
    });
    return { uploadUrl: `${LOGO_UPLOAD_PREFIX}${token}`, logoPath: `${LOGO_FILES_PREFIX}${storedName}` };
  }

  /** PUT to the upload URL: the signature, expiry and single use first, then the bytes themselves. */
  async upload(token: string, body: unknown): Promise<{ success: true; logoPath: string }> {
    const grant = this.signer.verify(token);
    if (!grant || !STORED_NAME.test(grant.p))
      throw new AppException(HttpStatus.FORBIDDEN, ERROR_CODES.LOGO_URL_INVALID, M.LOGO_URL_INVALID);
    if (grant.e * 1000 <= Date.now())
      throw new AppException(HttpStatus.FORBIDDEN, ERROR_CODES.LOGO_URL_EXPIRED, M.LOGO_URL_EXPIRED);
    // Claim the nonce atomically: the URL is spent by this attempt, whatever the file turns out to be.
    const claimed = await this.uploads.update(
      { nonce: grant.n, organisationId: grant.o, storedName: grant.p, usedAt: IsNull() },
      { usedAt: new Date() },
    );
    if (!claimed.affected) {
      const known = await this.uploads.existsBy({ nonce: grant.n });
      throw known
        ? new AppException(HttpStatus.CONFLICT, ERROR_CODES.LOGO_URL_USED, M.LOGO_URL_USED)
        : new AppException(HttpStatus.FORBIDDEN, ERROR_CODES.LOGO_URL_INVALID, M.LOGO_URL_INVALID);
    }
    const bytes = Buffer.isBuffer(body) ? body : Buffer.alloc(0);
    if (bytes.length > LIMITS.LOGO_MAX_BYTES)
      throw new AppException(HttpStatus.PAYLOAD_TOO_LARGE, ERROR_CODES.PAYLOAD_TOO_LARGE, M.LOGO_TOO_LARGE);
    if (bytes.length !== grant.s) throw AppException.badRequest(M.LOGO_SIZE_MISMATCH, ERROR_CODES.LOGO_SIZE_MISMATCH);
    const type = detectImageType(bytes);
    if (!type || type !== grant.t) throw AppException.badRequest(M.LOGO_NOT_IMAGE, ERROR_CODES.LOGO_NOT_IMAGE);
    // In the shared file store: the upload may reach one instance and the save another.
    await this.files.put(fileKey(grant.p), bytes, type);
    return { success: true, logoPath: `${LOGO_FILES_PREFIX}${grant.p}` };
  }

  /** Makes an uploaded file the organisation's logo; the previous file is removed. */
  async save(caller: AuthUser, logoPath: string, client?: RequestContext): Promise<LogoInfo & { success: true }> {
    const storedName = LOGO_PATH_PATTERN.exec(logoPath)?.[1];
    const upload = storedName
      ? await this.uploads.findOneBy({
          storedName,
          organisationId: caller.organisationId,
          usedAt: Not(IsNull()),
          // An upload the sweep may be removing is no longer saved (see SAVE_WITHIN_HOURS).
          expiresAt: MoreThan(new Date(Date.now() - SAVE_WITHIN_HOURS * HOUR_MS)),
        })
      : null;
    if (!upload || !(await this.files.exists(fileKey(upload.storedName))))
      throw AppException.badRequest(M.LOGO_NOT_UPLOADED, ERROR_CODES.LOGO_NOT_UPLOADED);
    const org = await this.organisations.findOneByOrFail({ id: caller.organisationId });
    const previous = org.logoPath;
    await this.organisations.manager.transaction(async (tx) => {
      await tx.getRepository(Organisation).update({ id: org.id }, { logoPath });
      await this.audit.record(tx, {
        type: 'LOGO_SAVED',
        actor: caller,
        organisationId: org.id,
        client,
        summary: 'Organisation logo saved',
        changes: { logoPath: { from: previous, to: logoPath } },
      });
    });
    if (previous && previous !== logoPath) await this.remove(previous);
    return { success: true, logoPath };
  }

  private async remove(logoPath: string): Promise<void> {
    const name = LOGO_PATH_PATTERN.exec(logoPath)?.[1];
    if (!name) return;
    try {
      await this.files.delete(fileKey(name));
    } catch (e) {
      this.logger.warn(`Could not remove the previous logo ${name}: ${(e as Error).message}`);
    }
  }

  /** The bytes to serve for /files/logos/<name>, with the type decided from the name we gave it. */
  async file(name: string): Promise<{ data: Buffer; type: LogoMimeType }> {
    const match = STORED_NAME.exec(name);
    const stored = match ? await this.files.get(fileKey(name)) : null;
    if (!match || !stored) throw AppException.notFound('Logo not found.');
    return { data: stored.data, type: TYPE_BY_EXTENSION[match[1]] };
  }
}

/** Where a logo lives in the file store. */
function fileKey(storedName: string): string {
  return `logos/${storedName}`;
}
