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
exports.FileLinksService = exports.SAFE_FILE_NAME = void 0;
exports.isSafeFileName = isSafeFileName;
exports.sanitiseFileName = sanitiseFileName;
const common_1 = require("@nestjs/common");
const node_crypto_1 = require("node:crypto");
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const app_config_module_1 = require("../config/app-config.module");
const app_exception_1 = require("../common/app.exception");
const notifications_1 = require("../shared/notifications");
/** A file name we store and serve: no path separators, no leading dot, nothing exotic. */
exports.SAFE_FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._ ()-]{0,199}$/;
function isSafeFileName(name) {
    return exports.SAFE_FILE_NAME.test(name) && !name.includes('..');
}
/** Makes a safe file name out of what a publisher sent (keeps letters, digits, dot, dash, underscore). */
function sanitiseFileName(name) {
    const base = name.split(/[\\/]/).pop() ?? '';
    const cleaned = base.replace(/[^A-Za-z0-9._ ()-]+/g, '_').replace(/\.{2,}/g, '.').replace(/^[^A-Za-z0-9]+/, '').slice(0, 150);
    return cleaned || 'file';
}
/**
 * Download links carried by notifications (spec 001 §9: valid one hour). A link is
 * `/files/<area>/<organisationId>/<name>?expires=<unix seconds>&sig=<HMAC-SHA256>`, signed with a key
 * derived from the JWT secret; the files controller serves it only while the signature holds.
 */
let FileLinksService = class FileLinksService {
    config;
    key;
    constructor(config) {
        this.config = config;
        this.key = (0, node_crypto_1.createHmac)('sha256', config.jwtSecret).update('notification-file-links').digest();
    }
    /** DATA_DIR/<area>/<organisationId>/<name>. */
    pathOf(area, organisationId, name) {
        return (0, node_path_1.join)(this.config.dataDir, area, String(organisationId), name);
    }
    exists(area, organisationId, name) {
        if (!isSafeFileName(name))
            return false;
        const path = this.pathOf(area, organisationId, name);
        return (0, node_fs_1.existsSync)(path) && (0, node_fs_1.statSync)(path).isFile();
    }
    /** The unsigned reference kept in the database: `/files/<area>/<org>/<name>`. */
    reference(area, organisationId, name) {
        return `/files/${area}/${organisationId}/${encodeURIComponent(name)}`;
    }
    /** Parses an unsigned or signed reference of ours; null for anything else. */
    parseReference(link) {
        const m = /^\/?files\/(reports|process-logs)\/(\d{1,12})\/([^/?#]+)(?:\?.*)?$/.exec(link);
        if (!m)
            return null;
        let name;
        try {
            name = decodeURIComponent(m[3]);
        }
        catch {
            return null;
        }
        if (!isSafeFileName(name))
            return null;
        return { area: m[1], organisationId: Number(m[2]), name };
    }
    /** A link valid for one hour from now. */
    sign(area, organisationId, name, now = Date.now()) {
        const expires = Math.floor(now / 1000) + notifications_1.DOWNLOAD_LINK_SECONDS;
        return `${this.reference(area, organisationId, name)}?expires=${expires}&sig=${this.signature(area, organisationId, name, expires)}`;
    }
    /** Signs a reference of ours; any other link (an external https URL) is returned as it is. */
    signReference(link, now = Date.now()) {
        if (!link)
            return link;
        const ref = this.parseReference(link);
        return ref ? this.sign(ref.area, ref.organisationId, ref.name, now) : link;
    }
    /** Throws 403 unless the signature is ours and has not expired; answers the file's path. */
    verify(area, organisationIdText, name, expiresText, sig, now = Date.now()) {
        const refused = (message) => app_exception_1.AppException.forbidden(message, 'DOWNLOAD_LINK_INVALID');
        if (!/^\d{1,12}$/.test(organisationIdText) || !isSafeFileName(name))
            throw refused('This download link is not valid.');
        if (typeof expiresText !== 'string' || !/^\d{1,12}$/.test(expiresText) || typeof sig !== 'string')
            throw refused('This download link is not valid.');
        const organisationId = Number(organisationIdText);
        const expires = Number(expiresText);
        const expected = Buffer.from(this.signature(area, organisationId, name, expires));
        const given = Buffer.from(sig);
        if (expected.length !== given.length || !(0, node_crypto_1.timingSafeEqual)(expected, given))
            throw refused('This download link is not valid.');
        if (expires * 1000 <= now)
            throw refused('This download link has expired.');
        if (!this.exists(area, organisationId, name))
            throw app_exception_1.AppException.notFound('The file is no longer available.');
        return this.pathOf(area, organisationId, name);
    }
    signature(area, organisationId, name, expires) {
        return (0, node_crypto_1.createHmac)('sha256', this.key).update(`${area}/${organisationId}/${name}:${expires}`).digest('base64url');
    }
};
exports.FileLinksService = FileLinksService;
exports.FileLinksService = FileLinksService = __decorate([
    (0, common_1.Injectable)(),
    __param(0, (0, common_1.Inject)(app_config_module_1.APP_CONFIG)),
    __metadata("design:paramtypes", [Object])
], FileLinksService);
//# sourceMappingURL=file-links.service.js.map