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
exports.LogoService = exports.LOGO_UPLOAD_PREFIX = exports.LOGO_FILES_PREFIX = void 0;
const common_1 = require("@nestjs/common");
const typeorm_1 = require("@nestjs/typeorm");
const node_crypto_1 = require("node:crypto");
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const typeorm_2 = require("typeorm");
const app_exception_1 = require("../common/app.exception");
const app_config_module_1 = require("../config/app-config.module");
const organisation_entity_1 = require("../organisations/entities/organisation.entity");
const limits_1 = require("../shared/limits");
const organisation_admin_1 = require("../shared/organisation-admin");
const logo_dto_1 = require("./dto/logo.dto");
const logo_upload_entity_1 = require("./entities/logo-upload.entity");
const image_type_1 = require("./image-type");
const upload_url_signer_1 = require("./upload-url-signer");
exports.LOGO_FILES_PREFIX = '/files/logos/';
exports.LOGO_UPLOAD_PREFIX = '/api/logo/upload/';
const STORED_NAME = /^[a-f0-9]{32}\.(png|jpg|gif|webp)$/;
/**
 * The organisation logo (spec 001 §4 'Logo upload'): a signed single-use upload URL on this server,
 * the upload itself (accepted only for a real raster image of at most 10 MB), saving it as the
 * organisation's logo, and serving the files.
 */
let LogoService = class LogoService {
    uploads;
    organisations;
    logger = new common_1.Logger('Logo');
    signer;
    dir;
    constructor(config, uploads, organisations) {
        this.uploads = uploads;
        this.organisations = organisations;
        this.signer = new upload_url_signer_1.UploadUrlSigner(config.jwtSecret);
        this.dir = (0, node_path_1.join)(config.dataDir, 'logos');
        (0, node_fs_1.mkdirSync)(this.dir, { recursive: true });
    }
    async read(caller) {
        const org = await this.organisations.findOneBy({ id: caller.organisationId });
        return { logoPath: org?.logoPath ?? null };
    }
    async uploadUrl(caller, dto, now = new Date()) {
        const nonce = (0, node_crypto_1.randomBytes)(24).toString('base64url');
        const storedName = `${(0, node_crypto_1.randomBytes)(16).toString('hex')}.${image_type_1.EXTENSION_BY_TYPE[dto.mimeType]}`;
        const expiresAt = new Date(now.getTime() + organisation_admin_1.LOGO_UPLOAD_URL_SECONDS * 1000);
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
        return { uploadUrl: `${exports.LOGO_UPLOAD_PREFIX}${token}`, logoPath: `${exports.LOGO_FILES_PREFIX}${storedName}` };
    }
    /** PUT to the upload URL: the signature, expiry and single use first, then the bytes themselves. */
    async upload(token, body) {
        const grant = this.signer.verify(token);
        if (!grant || !STORED_NAME.test(grant.p))
            throw new app_exception_1.AppException(common_1.HttpStatus.FORBIDDEN, 'LOGO_URL_INVALID', organisation_admin_1.ORG_ADMIN_MESSAGES.LOGO_URL_INVALID);
        if (grant.e * 1000 <= Date.now())
            throw new app_exception_1.AppException(common_1.HttpStatus.FORBIDDEN, 'LOGO_URL_EXPIRED', organisation_admin_1.ORG_ADMIN_MESSAGES.LOGO_URL_EXPIRED);
        // Claim the nonce atomically: the URL is spent by this attempt, whatever the file turns out to be.
        const claimed = await this.uploads.update({ nonce: grant.n, organisationId: grant.o, storedName: grant.p, usedAt: (0, typeorm_2.IsNull)() }, { usedAt: new Date() });
        if (!claimed.affected) {
            const known = await this.uploads.existsBy({ nonce: grant.n });
            throw known
                ? new app_exception_1.AppException(common_1.HttpStatus.CONFLICT, 'LOGO_URL_USED', organisation_admin_1.ORG_ADMIN_MESSAGES.LOGO_URL_USED)
                : new app_exception_1.AppException(common_1.HttpStatus.FORBIDDEN, 'LOGO_URL_INVALID', organisation_admin_1.ORG_ADMIN_MESSAGES.LOGO_URL_INVALID);
        }
        const bytes = Buffer.isBuffer(body) ? body : Buffer.alloc(0);
        if (bytes.length > limits_1.LIMITS.LOGO_MAX_BYTES)
            throw new app_exception_1.AppException(common_1.HttpStatus.PAYLOAD_TOO_LARGE, 'PAYLOAD_TOO_LARGE', organisation_admin_1.ORG_ADMIN_MESSAGES.LOGO_TOO_LARGE);
        if (bytes.length !== grant.s)
            throw app_exception_1.AppException.badRequest(organisation_admin_1.ORG_ADMIN_MESSAGES.LOGO_SIZE_MISMATCH, 'LOGO_SIZE_MISMATCH');
        const type = (0, image_type_1.detectImageType)(bytes);
        if (!type || type !== grant.t)
            throw app_exception_1.AppException.badRequest(organisation_admin_1.ORG_ADMIN_MESSAGES.LOGO_NOT_IMAGE, 'LOGO_NOT_IMAGE');
        (0, node_fs_1.writeFileSync)((0, node_path_1.join)(this.dir, grant.p), bytes, { flag: 'wx', mode: 0o640 });
        return { success: true, logoPath: `${exports.LOGO_FILES_PREFIX}${grant.p}` };
    }
    /** Makes an uploaded file the organisation's logo; the previous file is removed. */
    async save(caller, logoPath) {
        const storedName = logo_dto_1.LOGO_PATH_PATTERN.exec(logoPath)?.[1];
        const upload = storedName
            ? await this.uploads.findOneBy({ storedName, organisationId: caller.organisationId, usedAt: (0, typeorm_2.Not)((0, typeorm_2.IsNull)()) })
            : null;
        if (!upload || !(0, node_fs_1.existsSync)((0, node_path_1.join)(this.dir, upload.storedName)))
            throw app_exception_1.AppException.badRequest(organisation_admin_1.ORG_ADMIN_MESSAGES.LOGO_NOT_UPLOADED, 'LOGO_NOT_UPLOADED');
        const org = await this.organisations.findOneByOrFail({ id: caller.organisationId });
        const previous = org.logoPath;
        await this.organisations.update({ id: org.id }, { logoPath });
        if (previous && previous !== logoPath)
            this.remove(previous);
        return { success: true, logoPath };
    }
    remove(logoPath) {
        const name = logo_dto_1.LOGO_PATH_PATTERN.exec(logoPath)?.[1];
        if (!name)
            return;
        try {
            (0, node_fs_1.unlinkSync)((0, node_path_1.join)(this.dir, name));
        }
        catch (e) {
            this.logger.warn(`Could not remove the previous logo ${name}: ${e.message}`);
        }
    }
    /** The file to serve for /files/logos/<name>, with its type decided from the name we gave it. */
    file(name) {
        const match = STORED_NAME.exec(name);
        const path = match ? (0, node_path_1.join)(this.dir, name) : '';
        if (!match || !(0, node_fs_1.existsSync)(path))
            throw app_exception_1.AppException.notFound('Logo not found.');
        return { path, type: image_type_1.TYPE_BY_EXTENSION[match[1]] };
    }
};
exports.LogoService = LogoService;
exports.LogoService = LogoService = __decorate([
    (0, common_1.Injectable)(),
    __param(0, (0, common_1.Inject)(app_config_module_1.APP_CONFIG)),
    __param(1, (0, typeorm_1.InjectRepository)(logo_upload_entity_1.LogoUpload)),
    __param(2, (0, typeorm_1.InjectRepository)(organisation_entity_1.Organisation)),
    __metadata("design:paramtypes", [Object, typeorm_2.Repository,
        typeorm_2.Repository])
], LogoService);
//# sourceMappingURL=logo.service.js.map