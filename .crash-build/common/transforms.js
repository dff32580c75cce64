"use strict";
/** class-transformer functions shared by the DTOs (use with @Transform). */
Object.defineProperty(exports, "__esModule", { value: true });
exports.trimOrEmpty = exports.trim = void 0;
/** Trims strings; anything else passes unchanged. */
const trim = ({ value }) => (typeof value === 'string' ? value.trim() : value);
exports.trim = trim;
/** Trims strings, and turns a missing value into '' so that a required field gets its one 'empty' message. */
const trimOrEmpty = ({ value }) => (value === undefined || value === null ? '' : (0, exports.trim)({ value }));
exports.trimOrEmpty = trimOrEmpty;
//# sourceMappingURL=transforms.js.map