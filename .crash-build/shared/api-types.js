"use strict";
/** Shapes of the API that the server answers and the client reads. */
Object.defineProperty(exports, "__esModule", { value: true });
exports.APPLICATIONS = void 0;
/** Application entitlements of an organisation. */
exports.APPLICATIONS = { TAX_MANAGER: 'TAX_MANAGER', CA_VIEWER: 'CA_VIEWER' };
//# sourceMappingURL=api-types.js.map