"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.sha256 = sha256;
exports.randomToken = randomToken;
exports.randomDigits = randomDigits;
exports.temporaryPassword = temporaryPassword;
exports.encrypt = encrypt;
exports.decrypt = decrypt;
const node_crypto_1 = require("node:crypto");
/** SHA-256 in hex: how opaque tokens (refresh, reset) are stored, so a stolen table holds no usable token. */
function sha256(value) {
    return (0, node_crypto_1.createHash)('sha256').update(value).digest('hex');
}
/** A URL-safe random token of 32 bytes. */
function randomToken() {
    return (0, node_crypto_1.randomBytes)(32).toString('base64url');
}
/** A numeric code of the given length, uniformly drawn. */
function randomDigits(length) {
    let s = '';
    for (let i = 0; i < length; i++)
        s += String((0, node_crypto_1.randomInt)(10));
    return s;
}
/** A temporary password with letters, digits and a symbol, easy to type from an e-mail. */
function temporaryPassword() {
    const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
    let s = '';
    for (let i = 0; i < 14; i++)
        s += alphabet[(0, node_crypto_1.randomInt)(alphabet.length)];
    return `${s}#${(0, node_crypto_1.randomInt)(10)}`;
}
/** AES-256-GCM with a random IV: 'iv.tag.ciphertext' in base64url. */
function encrypt(plain, key) {
    const iv = (0, node_crypto_1.randomBytes)(12);
    const cipher = (0, node_crypto_1.createCipheriv)('aes-256-gcm', key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.');
}
function decrypt(sealed, key) {
    const [iv, tag, body] = sealed.split('.').map((p) => Buffer.from(p, 'base64url'));
    const decipher = (0, node_crypto_1.createDecipheriv)('aes-256-gcm', key, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
}
//# sourceMappingURL=secrets.js.map