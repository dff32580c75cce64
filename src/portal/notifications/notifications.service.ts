import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { Brackets, Repository } from 'typeorm';
import { AppException } from '../../platform/web/app.exception';
import { AuthUser } from '../../platform/web/auth-user';
import { Organisation } from '../../platform/database/entities/organisation.entity';
import {
  CONTENT_FIELDS,
  CONTENT_RULES,
  ContentField,
  NOTIFICATION_LIST_MAX,
  NotificationContent,
  NotificationItem,
  NotificationType,
  ProcessLogUrlResponse,
} from '../../shared/portal/notifications';
import { User } from '../../platform/database/entities/user.entity';
import { PublishNotificationDto } from './dto/notification.dto';
import { Notification, NotificationReceipt, NotificationWatermark } from './entities/notification.entity';
import { FileLinksService, sanitiseFileName } from './file-links.service';
import { NotificationSockets, NotificationTarget } from './notification-sockets.service';

/** Types whose content.fileName names a stored report when no downloadLink is given. */
const FILE_TYPES = new Set(['REPORT', 'CONTRACT_NOTES', 'RELEASE_NOTES', 'PROCESS_LOG', 'HOLDER_DOWNLOAD', 'OTHER']);

export const MAX_REPORT_BYTES = 25 * 1024 * 1024;

/** The most notifications one replay after an outage delivers (the oldest beyond it are left to the list). */
export const REPLAY_MAX = 1000;

/**
 * The notification rules (spec 001 §3, §4, §9): each user sees their own notifications and their
 * organisation's, never another organisation's; read and dismissed are per user, so an
 * organisation-wide notification dismissed by one user stays for the others.
 */
@Injectable()
export class NotificationsService {
  constructor(
    @InjectRepository(Notification) private readonly notifications: Repository<Notification>,
    @InjectRepository(NotificationReceipt) private readonly receipts: Repository<NotificationReceipt>,
    @InjectRepository(NotificationWatermark) private readonly watermarks: Repository<NotificationWatermark>,
    @InjectRepository(User) private readonly users: Repository<User>,
    @InjectRepository(Organisation) private readonly organisations: Repository<Organisation>,
    private readonly links: FileLinksService,
    private readonly sockets: NotificationSockets,
  ) {
    sockets.replayFrom((since) => this.publishedSince(since));
  }

  /** What was published since a time, oldest first, with whom each is for: replayed to sockets after an outage. */
  async publishedSince(since: Date): Promise<Array<{ target: NotificationTarget; item: NotificationItem }>> {
    // The newest by id (the primary key's order, no scan of the table), then those of the time asked.
    const newest = await this.notifications.find({ order: { id: 'DESC' }, take: REPLAY_MAX });
    const now = Date.now();
    const recent = newest.filter((n) => new Date(n.createdAt).getTime() >= since.getTime());
    return recent.reverse().map((n) => ({
      target: { userId: n.userId, organisationId: n.organisationId },
      item: this.toItem(n, false, now),
    }));
  }

  /** The caller's undismissed notifications, newest first. */
  async list(user: AuthUser): Promise<NotificationItem[]> {
    const through = await this.dismissedThrough(user.id);
    const rows = await this.visibleTo(user)
      .leftJoin(NotificationReceipt, 'r', 'r.notificationId = n.id AND r.userId = :uid', { uid: user.id })
      .addSelect('r.read', 'receipt_read')
      .andWhere('n.id > :through', { through })
      .andWhere(new Brackets((w) => w.where('r.dismissed IS NULL').orWhere('r.dismissed = :no', { no: false })))
      .orderBy('n.id', 'DESC')
      .limit(NOTIFICATION_LIST_MAX)
      .getRawAndEntities();
    const now = Date.now();
    return rows.entities.map((n, i) => this.toItem(n, truthy(rows.raw[i]?.receipt_read), now));
  }

  async dismiss(user: AuthUser, id: number): Promise<{ success: true }> {
    await this.findVisible(user, id);
    await this.receipts.upsert({ notificationId: id, userId: user.id, dismissed: true, updatedAt: new Date() }, [
      'notificationId',
      'userId',
    ]);
    return { success: true };
  }

  async markRead(user: AuthUser, id: number): Promise<{ success: true }> {
    await this.findVisible(user, id);
    await this.receipts.upsert({ notificationId: id, userId: user.id, read: true, updatedAt: new Date() }, [
      'notificationId',
      'userId',
    ]);
    return { success: true };
  }

  /** One write: everything visible now is dismissed; what arrives later shows. */
  async dismissAll(user: AuthUser): Promise<{ success: true }> {
    const latest = await this.visibleTo(user).select('MAX(n.id)', 'max').getRawOne<{ max: number | null }>();
    const through = Number(latest?.max ?? 0);
    if (through > (await this.dismissedThrough(user.id))) {
      await this.watermarks.upsert({ userId: user.id, dismissedThroughId: through, updatedAt: new Date() }, ['userId']);
    }
    return { success: true };
  }

  /** POST api/notifications (X-Api-Key): validated by type, stored, then delivered to the room. */
  async publish(dto: PublishNotificationDto): Promise<{ success: true; notificationId: number }> {
    const { organisationId, userId } = await this.resolveTarget(dto);
    const content = await this.checkContent(dto.type, dto.content as NotificationContent, organisationId);
    const saved = await this.notifications.save(
      this.notifications.create({ organisationId, userId, type: dto.type, content }),
    );
    this.sockets.emit({ userId, organisationId }, this.toItem(saved, false, Date.now()));
    return { success: true, notificationId: saved.id };
  }

  /**
   * A notification the product itself sends to some members of an organisation (a support-access request to its site
   * admins): stored for each, then delivered to their sockets.
   */
  async notifyUsers(
    organisationId: number,
    userIds: number[],
    type: NotificationType,
    content: NotificationContent,
  ): Promise<void> {
    if (userIds.length === 0) return;
    const saved = await this.notifications.save(
      userIds.map((userId) => this.notifications.create({ organisationId, userId, type, content })),
    );
    const now = Date.now();
    for (const n of saved) this.sockets.emit({ userId: n.userId, organisationId }, this.toItem(n, false, now));
  }

  /** POST api/notifications/reports (X-Api-Key): stores a report for an organisation's notifications. */
  async storeReport(
    organisationId: number,
    file: { originalname?: string; buffer?: Buffer; size?: number } | undefined,
  ) {
    if (!file?.buffer || !file.size) throw AppException.badRequest('Attach the report as the multipart field "file".');
    if (file.size > MAX_REPORT_BYTES) throw AppException.badRequest('The report must be at most 25 MB.');
    if (!(await this.organisations.existsBy({ id: organisationId })))
      throw AppException.badRequest('organisationId names no organisation.');
    const original = sanitiseFileName(file.originalname ?? 'report');
    const name = `${randomBytes(6).toString('hex')}-${original}`.slice(0, 200);
    const downloadLink = await this.links.storeReport(organisationId, name, file.buffer);
    return { success: true, fileName: original, downloadLink };
  }

  /** Spec 001 §7 process log: a signed link to DATA_DIR/process-logs/<organisation>/<portfolioId>.log when it exists. */
  async processLogUrl(user: AuthUser, portfolioId: string): Promise<ProcessLogUrlResponse> {
    const name = `${portfolioId}.log`;
    if (!(await this.links.exists('process-logs', user.organisationId, name))) return { url: null, fileExists: false };
    return { url: this.links.sign('process-logs', user.organisationId, name), fileExists: true };
  }

  toItem(n: Notification, read: boolean, now: number): NotificationItem {
    const content = { ...n.content };
    if (content.downloadLink) content.downloadLink = this.links.signReference(content.downloadLink, now);
    return { notificationId: n.id, read, date: new Date(n.createdAt).toISOString(), type: n.type, content };
  }

  private visibleTo(user: AuthUser) {
    return this.notifications
      .createQueryBuilder('n')
      .where('n.organisationId = :org', { org: user.organisationId })
      .andWhere(new Brackets((w) => w.where('n.userId = :me', { me: user.id }).orWhere('n.userId IS NULL')));
  }

  private async findVisible(user: AuthUser, id: number): Promise<Notification> {
    const n = await this.visibleTo(user).andWhere('n.id = :id', { id }).getOne();
    if (!n) throw AppException.notFound('Notification not found.');
    return n;
  }

  private async dismissedThrough(userId: number): Promise<number> {
    return (await this.watermarks.findOneBy({ userId }))?.dismissedThroughId ?? 0;
  }

  private async resolveTarget(dto: PublishNotificationDto): Promise<{ organisationId: number; userId: number | null }> {
    if (dto.userId === undefined && dto.organisationId === undefined)
      throw AppException.badRequest('Give userId or organisationId.');
    if (dto.userId !== undefined) {
      const user = await this.users.findOneBy({ id: dto.userId });
      if (!user) throw AppException.badRequest('userId names no user.');
      if (dto.organisationId !== undefined && dto.organisationId !== user.organisationId) {
        throw AppException.badRequest('The user does not belong to that organisation.');
      }
      return { organisationId: user.organisationId, userId: user.id };
    }
    if (!(await this.organisations.existsBy({ id: dto.organisationId! })))
      throw AppException.badRequest('organisationId names no organisation.');
    return { organisationId: dto.organisationId!, userId: null };
  }

  /** The content rules of the type; the download link must be https or a report of the same organisation. */
  private async checkContent(
    type: PublishNotificationDto['type'],
    given: NotificationContent,
    organisationId: number,
  ): Promise<NotificationContent> {
    const rules = CONTENT_RULES[type];
    const content: NotificationContent = {};
    for (const field of CONTENT_FIELDS) {
      const value = given[field];
      if (value === undefined || value === null) continue;
      if (!rules.allowed.includes(field))
        throw AppException.badRequest(`content.${field} is not a field of ${type} notifications.`);
      content[field] = value.trim();
    }
    const missing = rules.required.filter((f: ContentField) => !content[f]);
    if (missing.length)
      throw AppException.badRequest(`${type} notifications need content.${missing.join(', content.')}.`);

    if (content.downloadLink) {
      const ref = this.links.parseReference(content.downloadLink);
      if (ref) {
        if (
          ref.area !== 'reports' ||
          ref.organisationId !== organisationId ||
          !(await this.links.exists('reports', organisationId, ref.name))
        ) {
          throw AppException.badRequest('content.downloadLink names no stored report of this organisation.');
        }
        content.downloadLink = this.links.reference('reports', organisationId, ref.name);
      } else if (!isHttpUrl(content.downloadLink)) {
        throw AppException.badRequest(
          'content.downloadLink must be an http(s) URL or a stored report (/files/reports/...).',
        );
      }
    } else if (
      content.fileName &&
      FILE_TYPES.has(type) &&
      (await this.links.exists('reports', organisationId, content.fileName))
    ) {
      content.downloadLink = this.links.reference('reports', organisationId, content.fileName);
    }
    return content;
  }
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

function truthy(v: unknown): boolean {
  return v === true || v === 1 || v === '1' || v === 't' || v === 'true';
}
