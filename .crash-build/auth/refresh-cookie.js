"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.REFRESH_COOKIE = void 0;
exports.setRefreshCookie = setRefreshCookie;
exports.clearRefreshCookie = clearRefreshCookie;
const limits_1 = require("../shared/limits");
/** The refresh token travels only in this cookie, only to /refresh (CONTRACT 3). */
exports.REFRESH_COOKIE = 'refreshToken';
function options(secure) {
    return { httpOnly: true, sameSite: 'strict', secure, path: '/refresh' };
}
function setRefreshCookie(res, token, secure) {
    res.cookie(exports.REFRESH_COOKIE, token, { ...options(secure), maxAge: limits_1.LIFETIMES.REFRESH_TOKEN_SECONDS * 1000 });
}
function clearRefreshCookie(res, secure) {
    res.clearCookie(exports.REFRESH_COOKIE, options(secure));
}
//# sourceMappingURL=refresh-cookie.js.map