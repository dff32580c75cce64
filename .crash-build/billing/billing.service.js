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
exports.BillingService = void 0;
const common_1 = require("@nestjs/common");
const typeorm_1 = require("@nestjs/typeorm");
const typeorm_2 = require("typeorm");
const app_exception_1 = require("../common/app.exception");
const organisation_admin_1 = require("../shared/organisation-admin");
const contact_profile_entity_1 = require("./entities/contact-profile.entity");
const FIELDS = ['fullName', 'jobTitle', 'department', 'basedIn', 'email', 'mobile'];
/** The primary and billing contacts of the caller's own organisation (spec 001 §2.11, §7). */
let BillingService = class BillingService {
    contacts;
    constructor(contacts) {
        this.contacts = contacts;
    }
    /** The saved contact, or an empty one (id null) when none was saved yet. */
    async read(caller, kind) {
        const found = await this.contacts.findOneBy({ organisationId: caller.organisationId, kind });
        return found ? toProfile(found) : { id: null, fullName: '', jobTitle: '', department: '', basedIn: '', email: '', mobile: '' };
    }
    async create(caller, kind, dto) {
        if (await this.contacts.existsBy({ organisationId: caller.organisationId, kind }))
            throw app_exception_1.AppException.conflict(organisation_admin_1.ORG_ADMIN_MESSAGES.CONTACT_EXISTS);
        const saved = await this.contacts.save(this.contacts.create({ organisationId: caller.organisationId, kind, ...values(dto) }));
        return toProfile(saved);
    }
    /** Another organisation's contact (or the other kind) is answered like a missing one. */
    async update(caller, kind, dto) {
        const found = await this.contacts.findOneBy({ id: dto.id, organisationId: caller.organisationId, kind });
        if (!found)
            throw app_exception_1.AppException.notFound(organisation_admin_1.ORG_ADMIN_MESSAGES.CONTACT_NOT_FOUND);
        Object.assign(found, values(dto));
        return toProfile(await this.contacts.save(found));
    }
};
exports.BillingService = BillingService;
exports.BillingService = BillingService = __decorate([
    (0, common_1.Injectable)(),
    __param(0, (0, typeorm_1.InjectRepository)(contact_profile_entity_1.ContactProfileEntity)),
    __metadata("design:paramtypes", [typeorm_2.Repository])
], BillingService);
function values(dto) {
    return {
        fullName: dto.fullName,
        jobTitle: dto.jobTitle ?? '',
        department: dto.department ?? '',
        basedIn: dto.basedIn ?? '',
        email: dto.email ?? '',
        mobile: dto.mobile ?? '',
    };
}
function toProfile(e) {
    return { id: e.id, fullName: e.fullName, jobTitle: e.jobTitle, department: e.department, basedIn: e.basedIn, email: e.email, mobile: e.mobile };
}
//# sourceMappingURL=billing.service.js.map