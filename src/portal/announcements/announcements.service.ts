import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Brackets, In, Repository, SelectQueryBuilder } from 'typeorm';
import { AuditService } from '../../platform/audit';
import { AppException } from '../../platform/web/app.exception';
import { RequestContext } from '../../platform/web/request-context';
import { AuthUser, isSupport } from '../../platform/web/auth-user';
import { Organisation } from '../../platform/database/entities/organisation.entity';
import { AnnouncementItem, AnnouncementSummary } from '../../shared/api-types';
import { CreateAnnouncementDto } from './dto/create-announcement.dto';
import { AnnouncementDismissal } from './entities/announcement-dismissal.entity';
import { Announcement } from './entities/announcement.entity';

/**
 * Announcements: E-Support publishes to every organisation or to one; a user sees those published to
 * everyone and to their own organisation (E-Support sees all), and dismisses them for themselves.
 */
@Injectable()
export class AnnouncementsService {
  constructor(
    @InjectRepository(Announcement) private readonly announcements: Repository<Announcement>,
    @InjectRepository(AnnouncementDismissal) private readonly dismissals: Repository<AnnouncementDismissal>,
    @InjectRepository(Organisation) private readonly organisations: Repository<Organisation>,
    private readonly audit: AuditService,
  ) {}

  async create(caller: AuthUser, dto: CreateAnnouncementDto, client?: RequestContext): Promise<AnnouncementItem> {
    const organisationId = dto.organisationId ?? null;
    if (organisationId !== null && !(await this.organisations.existsBy({ id: organisationId }))) {
      throw AppException.notFound('Organisation not found.');
    }
    const saved = await this.announcements.manager.transaction(async (tx) => {
      const repo = tx.getRepository(Announcement);
      const row = await repo.save(
        repo.create({ title: dto.title.trim(), content: dto.content.trim(), organisationId, createdById: caller.id }),
      );
      // An announcement to everyone stays in the publisher's (vendor's) log; one to an organisation in that organisation's.
      await this.audit.record(tx, {
        type: 'ANNOUNCEMENT_PUBLISHED',
        actor: caller,
        organisationId: organisationId ?? caller.organisationId,
        client,
        summary: `Announcement "${row.title.slice(0, 200)}" published to ${organisationId === null ? 'every organisation' : `organisation ${organisationId}`}`,
      });
      return row;
    });
    return (await this.toItems(caller, [saved]))[0];
  }

  /** The organisations E-Support may address, for the publish form. */
  async audiences(): Promise<Array<{ id: number; code: string; name: string }>> {
    const orgs = await this.organisations.find({
      select: { id: true, code: true, name: true },
      order: { name: 'ASC' },
    });
    return orgs.map((o) => ({ id: o.id, code: o.code, name: o.name }));
  }

  /** Newest first. */
  async list(caller: AuthUser): Promise<AnnouncementItem[]> {
    const rows = await this.visible(caller).orderBy('a.createdAt', 'DESC').addOrderBy('a.id', 'DESC').getMany();
    return this.toItems(caller, rows);
  }

  /** The latest announcement the caller can see, and whether they dismissed it. */
  async summary(caller: AuthUser): Promise<AnnouncementSummary> {
    const last = await this.visible(caller).orderBy('a.createdAt', 'DESC').addOrderBy('a.id', 'DESC').getOne();
    if (!last) return { isLastAnnouncementDismissed: false, lastAnnnouncementId: null, lastAnnnouncementTitle: null };
    const dismissed = await this.dismissals.existsBy({ announcementId: last.id, userId: caller.id });
    return { isLastAnnouncementDismissed: dismissed, lastAnnnouncementId: last.id, lastAnnnouncementTitle: last.title };
  }

  async dismiss(caller: AuthUser, id: number): Promise<{ success: true }> {
    const found = await this.visible(caller).andWhere('a.id = :id', { id }).getOne();
    if (!found) throw AppException.notFound('Announcement not found.');
    if (!(await this.dismissals.existsBy({ announcementId: id, userId: caller.id }))) {
      await this.dismissals.save(this.dismissals.create({ announcementId: id, userId: caller.id }));
    }
    return { success: true };
  }

  private visible(caller: AuthUser): SelectQueryBuilder<Announcement> {
    const qb = this.announcements.createQueryBuilder('a');
    if (isSupport(caller)) return qb.where('1 = 1');
    return qb.where(
      new Brackets((w) =>
        w.where('a.organisationId IS NULL').orWhere('a.organisationId = :org', { org: caller.organisationId }),
      ),
    );
  }

  private async toItems(caller: AuthUser, rows: Announcement[]): Promise<AnnouncementItem[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const orgIds = [...new Set(rows.map((r) => r.organisationId).filter((o): o is number => o !== null))];
    const [dismissed, orgs] = await Promise.all([
      this.dismissals.findBy({ userId: caller.id, announcementId: In(ids) }),
      orgIds.length ? this.organisations.findBy({ id: In(orgIds) }) : Promise.resolve([]),
    ]);
    const dismissedIds = new Set(dismissed.map((d) => d.announcementId));
    const names = new Map(orgs.map((o) => [o.id, o.name]));
    return rows.map((r) => ({
      id: r.id,
      title: r.title,
      content: r.content,
      organisationId: r.organisationId,
      organisationName: r.organisationId === null ? null : (names.get(r.organisationId) ?? null),
      createdAt: new Date(r.createdAt).toISOString(),
      dismissed: dismissedIds.has(r.id),
    }));
  }
}
