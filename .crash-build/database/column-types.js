"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.DATE_TYPE = void 0;
/**
 * Column types that differ between the embedded SQLite and PostgreSQL (DATABASE_URL=postgres://…).
 * Read once at load: the choice of database is fixed for the life of the process.
 */
const isPostgres = /^postgres(ql)?:/.test(process.env.DATABASE_URL ?? '');
exports.DATE_TYPE = isPostgres ? 'timestamptz' : 'datetime';
//# sourceMappingURL=column-types.js.map