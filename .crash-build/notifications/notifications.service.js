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
exports.NotificationsService = exports.MAX_REPORT_BYTES = void 0;
const common_1 = require("@nestjs/common");
const typeorm_1 = require("@nestjs/typeorm");
const node_crypto_1 = require("node:crypto");
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const typeorm_2 = require("typeorm");
const app_exception_1 = require("../common/app.exception");
const organisation_entity_1 = require("../organisations/entities/organisation.entity");
const notifications_1 = require("../shared/notifications");
const user_entity_1 = require("../users/entities/user.entity");
const notification_entity_1 = require("./entities/notification.entity");
const file_links_service_1 = require("./file-links.service");
const notifications_gateway_1 = require("./notifications.gateway");
/** Types whose content.fileName names a stored report when no downloadLink is given. */
const FILE_TYPES = new Set(['REPORT', 'CONTRACT_NOTES', 'RELEASE_NOTES', 'PROCESS_LOG', 'HOLDER_DOWNLOAD', 'OTHER']);
exports.MAX_REPORT_BYTES = 25 * 1024 * 1024;
/**
 * The notification rules (spec 001 §3, §4, §9): each user sees their own notifications and their
 * organisation's, never another organisation's; read and dismissed are per user, so an
 * organisation-wide notification dismissed by one user stays for the others.
 */
let NotificationsService = class NotificationsService {
    notifications;
    receipts;
    watermarks;
    users;
    organisations;
    links;
    gateway;
    constructor(notifications, receipts, watermarks, users, organisations, links, gateway) {
        this.notifications = notifications;
        this.receipts = receipts;
        this.watermarks = watermarks;
        this.users = users;
        this.organisations = organisations;
        this.links = links;
        this.gateway = gateway;
    }
    /** The caller's undismissed notifications, newest first. */
    async list(user) {
        const through = await this.dismissedThrough(user.id);
        const rows = await this.visibleTo(user)
            .leftJoin(notification_entity_1.NotificationReceipt, 'r', 'r.notificationId = n.id AND r.userId = :uid', { uid: user.id })
            .addSelect('r.read', 'receipt_read')
            .andWhere('n.id > :through', { through })
            .andWhere(new typeorm_2.Brackets((w) => w.where('r.dismissed IS NULL').orWhere('r.dismissed = :no', { no: false })))
            .orderBy('n.id', 'DESC')
            .limit(notifications_1.NOTIFICATION_LIST_MAX)
            .getRawAndEntities();
        const now = Date.now();
        return rows.entities.map((n, i) => this.toItem(n, truthy(rows.raw[i]?.receipt_read), now));
    }
    async dismiss(user, id) {
        await this.findVisible(user, id);
        await this.receipts.upsert({ notificationId: id, userId: user.id, dismissed: true, updatedAt: new Date() }, ['notificationId', 'userId']);
        return { success: true };
    }
    async markRead(user, id) {
        await this.findVisible(user, id);
        await this.receipts.upsert({ notificationId: id, userId: user.id, read: true, updatedAt: new Date() }, ['notificationId', 'userId']);
        return { success: true };
    }
    /** One write: everything visible now is dismissed; what arrives later shows. */
    async dismissAll(user) {
        const latest = await this.visibleTo(user).select('MAX(n.id)', 'max').getRawOne();
        const through = Number(latest?.max ?? 0);
        if (through > (await this.dismissedThrough(user.id))) {
            await this.watermarks.upsert({ userId: user.id, dismissedThroughId: through, updatedAt: new Date() }, ['userId']);
        }
        return { success: true };
    }
    /** POST api/notifications (X-Api-Key): validated by type, stored, then delivered to the room. */
    async publish(dto) {
        const { organisationId, userId } = await this.resolveTarget(dto);
        const content = this.checkContent(dto.type, dto.content, organisationId);
        const saved = await this.notifications.save(this.notifications.create({ organisationId, userId, type: dto.type, content }));
        this.gateway.emit({ userId, organisationId }, this.toItem(saved, false, Date.now()));
        return { success: true, notificationId: saved.id };
    }
    /** POST api/notifications/reports (X-Api-Key): stores a report for an organisation's notifications. */
    async storeReport(organisationId, file) {
        if (!file?.buffer || !file.size)
            throw app_exception_1.AppException.badRequest('Attach the report as the multipart field "file".');
        if (file.size > exports.MAX_REPORT_BYTES)
            throw app_exception_1.AppException.badRequest('The report must be at most 25 MB.');
        if (!(await this.organisations.existsBy({ id: organisationId })))
            throw app_exception_1.AppException.badRequest('organisationId names no organisation.');
        const original = (0, file_links_service_1.sanitiseFileName)(file.originalname ?? 'report');
        const name = `${(0, node_crypto_1.randomBytes)(6).toString('hex')}-${original}`.slice(0, 200);
        const path = this.links.pathOf('reports', organisationId, name);
        (0, node_fs_1.mkdirSync)((0, node_path_1.dirname)(path), { recursive: true });
        (0, node_fs_1.writeFileSync)(path, file.buffer, { mode: 0o600 });
        return { success: true, fileName: original, downloadLink: this.links.reference('reports', organisationId, name) };
    }
    /** Spec 001 §7 process log: a signed link to DATA_DIR/process-logs/<organisation>/<portfolioId>.log when it exists. */
    processLogUrl(user, portfolioId) {
        const name = `${portfolioId}.log`;
        if (!this.links.exists('process-logs', user.organisationId, name))
            return { url: null, fileExists: false };
        return { url: this.links.sign('process-logs', user.organisationId, name), fileExists: true };
    }
    toItem(n, read, now) {
        const content = { ...n.content };
        if (content.downloadLink)
            content.downloadLink = this.links.signReference(content.downloadLink, now);
        return { notificationId: n.id, read, date: new Date(n.createdAt).toISOString(), type: n.type, content };
    }
    visibleTo(user) {
        return this.notifications
            .createQueryBuilder('n')
            .where('n.organisationId = :org', { org: user.organisationId })
            .andWhere(new typeorm_2.Brackets((w) => w.where('n.userId = :me', { me: user.id }).orWhere('n.userId IS NULL')));
    }
    async findVisible(user, id) {
        const n = await this.visibleTo(user).andWhere('n.id = :id', { id }).getOne();
        if (!n)
            throw app_exception_1.AppException.notFound('Notification not found.');
        return n;
    }
    async dismissedThrough(userId) {
        return (await this.watermarks.findOneBy({ userId }))?.dismissedThroughId ?? 0;
    }
    async resolveTarget(dto) {
        if (dto.userId === undefined && dto.organisationId === undefined)
            throw app_exception_1.AppException.badRequest('Give userId or organisationId.');
        if (dto.userId !== undefined) {
            const user = await this.users.findOneBy({ id: dto.userId });
            if (!user)
                throw app_exception_1.AppException.badRequest('userId names no user.');
            if (dto.organisationId !== undefined && dto.organisationId !== user.organisationId) {
                throw app_exception_1.AppException.badRequest('The user does not belong to that organisation.');
            }
            return { organisationId: user.organisationId, userId: user.id };
        }
        if (!(await this.organisations.existsBy({ id: dto.organisationId })))
            throw app_exception_1.AppException.badRequest('organisationId names no organisation.');
        return { organisationId: dto.organisationId, userId: null };
    }
    /** The content rules of the type; the download link must be https or a report of the same organisation. */
    checkContent(type, given, organisationId) {
        const rules = notifications_1.CONTENT_RULES[type];
        const content = {};
        for (const field of notifications_1.CONTENT_FIELDS) {
            const value = given[field];
            if (value === undefined || value === null)
                continue;
            if (!rules.allowed.includes(field))
                throw app_exception_1.AppException.badRequest(`content.${field} is not a field of ${type} notifications.`);
            content[field] = value.trim();
        }
        const missing = rules.required.filter((f) => !content[f]);
        if (missing.length)
            throw app_exception_1.AppException.badRequest(`${type} notifications need content.${missing.join(', content.')}.`);
        if (content.downloadLink) {
            const ref = this.links.parseReference(content.downloadLink);
            if (ref) {
                if (ref.area !== 'reports' || ref.organisationId !== organisationId || !this.links.exists('reports', organisationId, ref.name)) {
                    throw app_exception_1.AppException.badRequest('content.downloadLink names no stored report of this organisation.');
                }
                content.downloadLink = this.links.reference('reports', organisationId, ref.name);
            }
            else if (!isHttpUrl(content.downloadLink)) {
                throw app_exception_1.AppException.badRequest('content.downloadLink must be an http(s) URL or a stored report (/files/reports/...).');
            }
        }
        else if (content.fileName && FILE_TYPES.has(type) && this.links.exists('reports', organisationId, content.fileName)) {
            content.downloadLink = this.links.reference('reports', organisationId, content.fileName);
        }
        return content;
    }
};
exports.NotificationsService = NotificationsService;
exports.NotificationsService = NotificationsService = __decorate([
    (0, common_1.Injectable)(),
    __param(0, (0, typeorm_1.InjectRepository)(notification_entity_1.Notification)),
    __param(1, (0, typeorm_1.InjectRepository)(notification_entity_1.NotificationReceipt)),
    __param(2, (0, typeorm_1.InjectRepository)(notification_entity_1.NotificationWatermark)),
    __param(3, (0, typeorm_1.InjectRepository)(user_entity_1.User)),
    __param(4, (0, typeorm_1.InjectRepository)(organisation_entity_1.Organisation)),
    __metadata("design:paramtypes", [typeorm_2.Repository,
        typeorm_2.Repository,
        typeorm_2.Repository,
        typeorm_2.Repository,
        typeorm_2.Repository,
        file_links_service_1.FileLinksService,
        notifications_gateway_1.NotificationsGateway])
], NotificationsService);
function isHttpUrl(value) {
    try {
        const url = new URL(value);
        return url.protocol === 'https:' || url.protocol === 'http:';
    }
    catch {
        return false;
    }
}
function truthy(v) {
    return v === true || v === 1 || v === '1' || v === 't' || v === 'true';
}
//# sourceMappingURL=notifications.service.js.map