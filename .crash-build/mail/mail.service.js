"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __setModuleDefault = (this && this.__setModuleDefault) || (Object.create ? (function(o, v) {
    Object.defineProperty(o, "default", { enumerable: true, value: v });
}) : function(o, v) {
    o["default"] = v;
});
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __importStar = (this && this.__importStar) || (function () {
    var ownKeys = function(o) {
        ownKeys = Object.getOwnPropertyNames || function (o) {
            var ar = [];
            for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) ar[ar.length] = k;
            return ar;
        };
        return ownKeys(o);
    };
    return function (mod) {
        if (mod && mod.__esModule) return mod;
        var result = {};
        if (mod != null) for (var k = ownKeys(mod), i = 0; i < k.length; i++) if (k[i] !== "default") __createBinding(result, mod, k[i]);
        __setModuleDefault(result, mod);
        return result;
    };
})();
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.MailService = void 0;
const common_1 = require("@nestjs/common");
const node_fs_1 = require("node:fs");
const node_crypto_1 = require("node:crypto");
const node_path_1 = require("node:path");
const nodemailer = __importStar(require("nodemailer"));
const app_config_module_1 = require("../config/app-config.module");
/**
 * Sends e-mail through nodemailer: SMTP when SMTP_URL is set; otherwise each message is written as an
 * .eml file to DATA_DIR/outbox and its subject and links are logged, so one machine completes every flow.
 */
let MailService = class MailService {
    config;
    logger = new common_1.Logger('Mail');
    transport;
    outbox;
    constructor(config) {
        this.config = config;
        if (config.smtpUrl) {
            this.transport = nodemailer.createTransport(config.smtpUrl);
        }
        else {
            this.outbox = (0, node_path_1.join)(config.dataDir, 'outbox');
            (0, node_fs_1.mkdirSync)(this.outbox, { recursive: true });
            this.transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
        }
    }
    async send(mail) {
        const info = await this.transport.sendMail({ from: this.config.mailFrom, ...mail });
        if (this.outbox) {
            const file = (0, node_path_1.join)(this.outbox, `${new Date().toISOString().replace(/[:.]/g, '-')}-${(0, node_crypto_1.randomBytes)(4).toString('hex')}.eml`);
            (0, node_fs_1.writeFileSync)(file, info.message);
            const links = mail.text.match(/https?:\/\/\S+/g) ?? [];
            if (this.config.logLevel !== 'silent') {
                this.logger.log(`E-mail to ${mail.to} written to ${file}: "${mail.subject}"${links.length ? ` links: ${links.join(' ')}` : ''}`);
            }
        }
    }
};
exports.MailService = MailService;
exports.MailService = MailService = __decorate([
    (0, common_1.Injectable)(),
    __param(0, (0, common_1.Inject)(app_config_module_1.APP_CONFIG)),
    __metadata("design:paramtypes", [Object])
], MailService);
//# sourceMappingURL=mail.service.js.map