"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.AnnouncementsService = void 0;
const common_1 = require("@nestjs/common");
const typeorm_1 = require("@nestjs/typeorm");
const typeorm_2 = require("typeorm");
const app_exception_1 = require("../common/app.exception");
const auth_user_1 = require("../common/auth-user");
const organisation_entity_1 = require("../organisations/entities/organisation.entity");
const announcement_dismissal_entity_1 = require("./entities/announcement-dismissal.entity");
const announcement_entity_1 = require("./entities/announcement.entity");
/**
 * Announcements: E-Support publishes to every organisation or to one; a user sees those published to
 * everyone and to their own organisation (E-Support sees all), and dismisses them for themselves.
 */
let AnnouncementsService = class AnnouncementsService {
    announcements;
    dismissals;
    organisations;
    constructor(announcements, dismissals, organisations) {
        this.announcements = announcements;
        this.dismissals = dismissals;
        this.organisations = organisations;
    }
    async create(caller, dto) {
        const organisationId = dto.organisationId ?? null;
        if (organisationId !== null && !(await this.organisations.existsBy({ id: organisationId }))) {
            throw app_exception_1.AppException.notFound('Organisation not found.');
        }
        const saved = await this.announcements.save(this.announcements.create({ title: dto.title.trim(), content: dto.content.trim(), organisationId, createdById: caller.id }));
        return (await this.toItems(caller, [saved]))[0];
    }
    /** The organisations E-Support may address, for the publish form. */
    async audiences() {
        const orgs = await this.organisations.find({ select: { id: true, code: true, name: true }, order: { name: 'ASC' } });
        return orgs.map((o) => ({ id: o.id, code: o.code, name: o.name }));
    }
    /** Newest first. */
    async list(caller) {
        const rows = await this.visible(caller).orderBy('a.createdAt', 'DESC').addOrderBy('a.id', 'DESC').getMany();
        return this.toItems(caller, rows);
    }
    /** The latest announcement the caller can see, and whether they dismissed it. */
    async summary(caller) {
        const last = await this.visible(caller).orderBy('a.createdAt', 'DESC').addOrderBy('a.id', 'DESC').getOne();
        if (!last)
            return { isLastAnnouncementDismissed: false, lastAnnnouncementId: null, lastAnnnouncementTitle: null };
        const dismissed = await this.dismissals.existsBy({ announcementId: last.id, userId: caller.id });
        return { isLastAnnouncementDismissed: dismissed, lastAnnnouncementId: last.id, lastAnnnouncementTitle: last.title };
    }
    async dismiss(caller, id) {
        const found = await this.visible(caller).andWhere('a.id = :id', { id }).getOne();
        if (!found)
            throw app_exception_1.AppException.notFound('Announcement not found.');
        if (!(await this.dismissals.existsBy({ announcementId: id, userId: caller.id }))) {
            await this.dismissals.save(this.dismissals.create({ announcementId: id, userId: caller.id }));
        }
        return { success: true };
    }
    visible(caller) {
        const qb = this.announcements.createQueryBuilder('a');
        if ((0, auth_user_1.isSupport)(caller))
            return qb.where('1 = 1');
        return qb.where(new typeorm_2.Brackets((w) => w.where('a.organisationId IS NULL').orWhere('a.organisationId = :org', { org: caller.organisationId })));
    }
    async toItems(caller, rows) {
        if (rows.length === 0)
            return [];
        const ids = rows.map((r) => r.id);
        const orgIds = [...new Set(rows.map((r) => r.organisationId).filter((o) => o !== null))];
        const [dismissed, orgs] = await Promise.all([
            this.dismissals.findBy({ userId: caller.id, announcementId: (0, typeorm_2.In)(ids) }),
            orgIds.length ? this.organisations.findBy({ id: (0, typeorm_2.In)(orgIds) }) : Promise.resolve([]),
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
};
exports.AnnouncementsService = AnnouncementsService;
exports.AnnouncementsService = AnnouncementsService = __decorate([
    (0, common_1.Injectable)(),
    __param(0, (0, typeorm_1.InjectRepository)(announcement_entity_1.Announcement)),
    __param(1, (0, typeorm_1.InjectRepository)(announcement_dismissal_entity_1.AnnouncementDismissal)),
    __param(2, (0, typeorm_1.InjectRepository)(organisation_entity_1.Organisation)),
    __metadata("design:paramtypes", [typeorm_2.Repository,
        typeorm_2.Repository,
        typeorm_2.Repository])
], AnnouncementsService);
//# sourceMappingURL=announcements.service.js.map