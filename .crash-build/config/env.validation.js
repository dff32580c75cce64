"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ConfigError = void 0;
exports.loadConfig = loadConfig;
const node_crypto_1 = require("node:crypto");
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
class ConfigError extends Error {
}
exports.ConfigError = ConfigError;
const LOG_LEVELS = ['silent', 'error', 'info', 'debug'];
function fail(variable, reason) {
    throw new ConfigError(`Invalid configuration: ${variable} ${reason}`);
}
function optional(env, name) {
    const v = env[name];
    return v === undefined || v.trim() === '' ? undefined : v.trim();
}
function url(env, name, protocols) {
    const v = optional(env, name);
    if (v === undefined)
        return undefined;
    let parsed;
    try {
        parsed = new URL(v);
    }
    catch {
        fail(name, `must be a URL (got "${v}")`);
    }
    if (!protocols.includes(parsed.protocol))
        fail(name, `must start with ${protocols.map((p) => `${p}//`).join(' or ')} (got "${v}")`);
    return v;
}
const EMAIL = /^[^\s@]+@[^\s@]+$/;
function email(env, name, fallback) {
    const v = optional(env, name) ?? fallback;
    if (!EMAIL.test(v))
        fail(name, `must be an e-mail address (got "${v}")`);
    return v.toLowerCase();
}
/** A secret kept in DATA_DIR, generated on first use, so nothing secret is ever hard-coded. */
function persistedSecret(dataDir, file, bytes) {
    const path = (0, node_path_1.join)(dataDir, file);
    if ((0, node_fs_1.existsSync)(path)) {
        const value = Buffer.from((0, node_fs_1.readFileSync)(path, 'utf8').trim(), 'base64');
        if (value.length === bytes)
            return value;
    }
    const value = (0, node_crypto_1.randomBytes)(bytes);
    (0, node_fs_1.writeFileSync)(path, value.toString('base64'), { mode: 0o600 });
    return value;
}
function loadConfig(env = process.env) {
    const portText = optional(env, 'PORT') ?? '3000';
    const port = Number(portText);
    if (!/^\d+$/.test(portText) || port < 0 || port > 65535)
        fail('PORT', `must be a port number (got "${portText}")`);
    const dataDir = (0, node_path_1.resolve)(optional(env, 'DATA_DIR') ?? './data');
    try {
        (0, node_fs_1.mkdirSync)(dataDir, { recursive: true });
    }
    catch (e) {
        fail('DATA_DIR', `cannot be created (${e.message})`);
    }
    const databaseUrl = url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
    const publicUrl = (url(env, 'PUBLIC_URL', ['http:', 'https:']) ?? `http://localhost:${port}`).replace(/\/+$/, '');
    const jwtSecretText = optional(env, 'JWT_SECRET');
    if (jwtSecretText !== undefined && jwtSecretText.length < 32)
        fail('JWT_SECRET', 'must be at least 32 characters long');
    const jwtSecret = jwtSecretText ?? persistedSecret(dataDir, 'jwt-secret', 48).toString('base64');
    const encryptionKeyText = optional(env, 'ENCRYPTION_KEY');
    let encryptionKey;
    if (encryptionKeyText !== undefined) {
        encryptionKey = Buffer.from(encryptionKeyText, 'base64');
        if (encryptionKey.length !== 32)
            fail('ENCRYPTION_KEY', 'must be 32 bytes encoded in base64');
    }
    else {
        encryptionKey = persistedSecret(dataDir, 'encryption-key', 32);
    }
    const supportEmailDomain = (optional(env, 'SUPPORT_EMAIL_DOMAIN') ?? 'support.localhost').toLowerCase();
    if (!/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(supportEmailDomain))
        fail('SUPPORT_EMAIL_DOMAIN', `must be a domain name (got "${supportEmailDomain}")`);
    const appEnv = optional(env, 'APP_ENV') ?? 'production';
    if (!/^[a-z][a-z0-9-]*$/.test(appEnv))
        fail('APP_ENV', `must be a lower-case environment name such as develop or production (got "${appEnv}")`);
    const serviceApiKey = optional(env, 'SERVICE_API_KEY');
    if (serviceApiKey !== undefined && serviceApiKey.length < 16)
        fail('SERVICE_API_KEY', 'must be at least 16 characters long');
    const oidcIssuer = url(env, 'OIDC_ISSUER', ['http:', 'https:']);
    const oidcClientId = optional(env, 'OIDC_CLIENT_ID');
    if ((oidcIssuer === undefined) !== (oidcClientId === undefined)) {
        fail(oidcIssuer === undefined ? 'OIDC_ISSUER' : 'OIDC_CLIENT_ID', 'must be set together with the other (OIDC_ISSUER and OIDC_CLIENT_ID)');
    }
    const logLevel = (optional(env, 'LOG_LEVEL') ?? 'info');
    if (!LOG_LEVELS.includes(logLevel))
        fail('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')} (got "${logLevel}")`);
    const bootstrapSupportPassword = optional(env, 'BOOTSTRAP_SUPPORT_PASSWORD');
    if (bootstrapSupportPassword !== undefined && (bootstrapSupportPassword.length < 8 || bootstrapSupportPassword.length > 50)) {
        fail('BOOTSTRAP_SUPPORT_PASSWORD', 'must be 8 to 50 characters long');
    }
    return {
        port,
        dataDir,
        databaseUrl,
        publicUrl,
        jwtSecret,
        encryptionKey,
        smtpUrl: url(env, 'SMTP_URL', ['smtp:', 'smtps:']),
        mailFrom: email(env, 'MAIL_FROM', `no-reply@${supportEmailDomain}`),
        supportEmail: email(env, 'SUPPORT_EMAIL', `support@${supportEmailDomain}`),
        supportEmailDomain,
        bootstrapSupportEmail: email(env, 'BOOTSTRAP_SUPPORT_EMAIL', `admin@${supportEmailDomain}`),
        bootstrapSupportPassword,
        appEnv,
        serviceApiKey,
        oidc: oidcIssuer && oidcClientId ? { issuer: oidcIssuer, clientId: oidcClientId, clientSecret: optional(env, 'OIDC_CLIENT_SECRET') } : undefined,
        redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
        logLevel,
        trustProxy: optional(env, 'TRUST_PROXY') === 'true',
    };
}
//# sourceMappingURL=env.validation.js.map