"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.version = void 0;
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
/** The product version, from package.json (one directory above both src/ and dist/). */
exports.version = JSON.parse((0, node_fs_1.readFileSync)((0, node_path_1.join)(__dirname, '..', 'package.json'), 'utf8')).version;
//# sourceMappingURL=version.js.map