"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.AllowMfaPending = exports.ALLOW_MFA_PENDING_KEY = exports.ServiceApi = exports.IS_SERVICE_API_KEY = exports.Public = exports.IS_PUBLIC_KEY = exports.Roles = void 0;
const core_1 = require("@nestjs/core");
const common_1 = require("@nestjs/common");
/** The roles that may call a route. Every route that is not @Public() or @ServiceApi() must carry it. */
exports.Roles = core_1.Reflector.createDecorator();
exports.IS_PUBLIC_KEY = 'isPublic';
/** Opts a route out of authentication (login, refresh, health, ...). */
const Public = () => (0, common_1.SetMetadata)(exports.IS_PUBLIC_KEY, true);
exports.Public = Public;
exports.IS_SERVICE_API_KEY = 'isServiceApi';
/** A route for other back-end systems, authenticated by the X-Api-Key header instead of a user token. */
const ServiceApi = () => (0, common_1.SetMetadata)(exports.IS_SERVICE_API_KEY, true);
exports.ServiceApi = ServiceApi;
exports.ALLOW_MFA_PENDING_KEY = 'allowMfaPending';
/**
 * A route an account whose MFA is enforced but not yet enabled may still use: its own profile,
 * the MFA enrolment calls, logout. Every other route refuses such an account until it enrols.
 */
const AllowMfaPending = () => (0, common_1.SetMetadata)(exports.ALLOW_MFA_PENDING_KEY, true);
exports.AllowMfaPending = AllowMfaPending;
//# sourceMappingURL=access.decorators.js.map