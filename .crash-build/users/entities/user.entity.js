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
Object.defineProperty(exports, "__esModule", { value: true });
exports.User = void 0;
const typeorm_1 = require("typeorm");
const column_types_1 = require("../../database/column-types");
const organisation_entity_1 = require("../../organisations/entities/organisation.entity");
const roles_1 = require("../../shared/roles");
let User = class User {
    id;
    organisationId;
    organisation;
    /** Lower-cased; unique across the product since it is the sign-in name. */
    email;
    /** argon2id hash; null for an account that signs in only through corporate SSO. */
    passwordHash;
    firstName;
    lastName;
    jobTitle;
    department;
    location;
    /** The main role (CONTRACT 2). */
    roleId;
    /** The administrator flag, held beside the main role. */
    isAdministrator;
    isDisabled;
    /** Blocked by the system (as opposed to disabled by an administrator). */
    isBlocked;
    isMFAEnforced;
    isMFAEnabled;
    /** TOTP secret, encrypted (AES-256-GCM) with the key in DATA_DIR. */
    mfaSecret;
    /** Secret of an enrolment under way, encrypted; becomes mfaSecret when the first code verifies. */
    mfaPendingSecret;
    /** The last TOTP time step accepted: a code is good once only. */
    mfaLastUsedStep;
    /** Hash of an e-mailed MFA code, and when it stops being valid. */
    emailMfaCodeHash;
    emailMfaCodeExpiresAt;
    isSSO;
    /** Set for new accounts and temporary passwords: the next sign-in must choose a new password. */
    mustChangePassword;
    passwordChangedAt;
    /** Kept beside the session history so the user list can sort and show it without a join. */
    lastLoginAt;
    createdAt;
    updatedAt;
    get roles() {
        return (0, roles_1.effectiveRoles)(this.roleId, this.isAdministrator);
    }
};
exports.User = User;
__decorate([
    (0, typeorm_1.PrimaryGeneratedColumn)(),
    __metadata("design:type", Number)
], User.prototype, "id", void 0);
__decorate([
    (0, typeorm_1.Index)('IDX_users_org'),
    (0, typeorm_1.Column)({ type: 'integer' }),
    __metadata("design:type", Number)
], User.prototype, "organisationId", void 0);
__decorate([
    (0, typeorm_1.ManyToOne)(() => organisation_entity_1.Organisation, { onDelete: 'CASCADE' }),
    (0, typeorm_1.JoinColumn)({ name: 'organisationId' }),
    __metadata("design:type", organisation_entity_1.Organisation)
], User.prototype, "organisation", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'varchar', length: 100, unique: true }),
    __metadata("design:type", String)
], User.prototype, "email", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'varchar', length: 200, nullable: true }),
    __metadata("design:type", Object)
], User.prototype, "passwordHash", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'varchar', length: 100, default: '' }),
    __metadata("design:type", String)
], User.prototype, "firstName", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'varchar', length: 100, default: '' }),
    __metadata("design:type", String)
], User.prototype, "lastName", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'varchar', length: 100, default: '' }),
    __metadata("design:type", String)
], User.prototype, "jobTitle", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'varchar', length: 100, default: '' }),
    __metadata("design:type", String)
], User.prototype, "department", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'varchar', length: 100, default: '' }),
    __metadata("design:type", String)
], User.prototype, "location", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'integer', default: roles_1.Role.STANDARD_ADMIN }),
    __metadata("design:type", Number)
], User.prototype, "roleId", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'boolean', default: false }),
    __metadata("design:type", Boolean)
], User.prototype, "isAdministrator", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'boolean', default: false }),
    __metadata("design:type", Boolean)
], User.prototype, "isDisabled", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'boolean', default: false }),
    __metadata("design:type", Boolean)
], User.prototype, "isBlocked", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'boolean', default: true }),
    __metadata("design:type", Boolean)
], User.prototype, "isMFAEnforced", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'boolean', default: false }),
    __metadata("design:type", Boolean)
], User.prototype, "isMFAEnabled", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'varchar', length: 300, nullable: true }),
    __metadata("design:type", Object)
], User.prototype, "mfaSecret", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'varchar', length: 300, nullable: true }),
    __metadata("design:type", Object)
], User.prototype, "mfaPendingSecret", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'integer', nullable: true }),
    __metadata("design:type", Object)
], User.prototype, "mfaLastUsedStep", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'varchar', length: 200, nullable: true }),
    __metadata("design:type", Object)
], User.prototype, "emailMfaCodeHash", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: column_types_1.DATE_TYPE, nullable: true }),
    __metadata("design:type", Object)
], User.prototype, "emailMfaCodeExpiresAt", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'boolean', default: false }),
    __metadata("design:type", Boolean)
], User.prototype, "isSSO", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'boolean', default: false }),
    __metadata("design:type", Boolean)
], User.prototype, "mustChangePassword", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: column_types_1.DATE_TYPE, nullable: true }),
    __metadata("design:type", Object)
], User.prototype, "passwordChangedAt", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: column_types_1.DATE_TYPE, nullable: true }),
    __metadata("design:type", Object)
], User.prototype, "lastLoginAt", void 0);
__decorate([
    (0, typeorm_1.CreateDateColumn)(),
    __metadata("design:type", Date)
], User.prototype, "createdAt", void 0);
__decorate([
    (0, typeorm_1.UpdateDateColumn)(),
    __metadata("design:type", Date)
], User.prototype, "updatedAt", void 0);
exports.User = User = __decorate([
    (0, typeorm_1.Entity)('users'),
    (0, typeorm_1.Index)('IDX_users_org_name', ['organisationId', 'lastName', 'firstName']),
    (0, typeorm_1.Index)('IDX_users_org_search', ['organisationId', 'lastName', 'firstName', 'email', 'roleId', 'isAdministrator', 'isDisabled', 'isBlocked']),
    (0, typeorm_1.Index)('IDX_users_org_role', ['organisationId', 'roleId']),
    (0, typeorm_1.Index)('IDX_users_org_access', ['organisationId', 'isDisabled', 'isBlocked'])
], User);
//# sourceMappingURL=user.entity.js.map