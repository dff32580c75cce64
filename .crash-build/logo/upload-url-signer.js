"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.UploadUrlSigner = void 0;
const node_crypto_1 = require("node:crypto");
/** HMAC-SHA256 over the grant with the application secret: 'payload.signature', both base64url. */
class UploadUrlSigner {
    secret;
    constructor(secret) {
        this.secret = secret;
    }
    mac(payload) {
        return (0, node_crypto_1.createHmac)('sha256', `logo-upload:${this.secret}`).update(payload).digest();
    }
    sign(grant) {
        const payload = Buffer.from(JSON.stringify(grant)).toString('base64url');
        return `${payload}.${this.mac(payload).toString('base64url')}`;
    }
    /** The grant when the signature is right (expiry is checked by the caller); otherwise null. */
    verify(token) {
        const [payload, signature, extra] = token.split('.');
        if (!payload || !signature || extra !== undefined)
            return null;
        const given = Buffer.from(signature, 'base64url');
        const expected = this.mac(payload);
        if (given.length !== expected.length || !(0, node_crypto_1.timingSafeEqual)(given, expected))
            return null;
        try {
            const grant = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
            return typeof grant.n === 'string' && typeof grant.o === 'number' && typeof grant.e === 'number' ? grant : null;
        }
        catch {
            return null;
        }
    }
}
exports.UploadUrlSigner = UploadUrlSigner;
//# sourceMappingURL=upload-url-signer.js.map