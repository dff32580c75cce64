"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var LoginThrottleService_1;
Object.defineProperty(exports, "__esModule", { value: true });
exports.LoginThrottleService = void 0;
const common_1 = require("@nestjs/common");
const app_exception_1 = require("../common/app.exception");
const messages_1 = require("../shared/messages");
/**
 * Slows, then refuses, repeated failed sign-ins for one account and from one address. While a key is
 * locked every attempt is refused with 429, the right password included. Kept in memory: one process
 * (see docs/decisions.md for several instances).
 */
let LoginThrottleService = class LoginThrottleService {
    static { LoginThrottleService_1 = this; }
    static WINDOW_MS = 15 * 60 * 1000;
    static LOCK_MS = 15 * 60 * 1000;
    static ACCOUNT_LIMIT = 5;
    static ADDRESS_LIMIT = 30;
    /** Failures of an account, and from an address, before each further attempt is delayed. */
    static ACCOUNT_SLOW_AFTER = 3;
    static ADDRESS_SLOW_AFTER = 15;
    static DELAY_STEP_MS = 400;
    counters = new Map();
    keys(account, address) {
        return [
            [`account:${account.toLowerCase()}`, LoginThrottleService_1.ACCOUNT_LIMIT, LoginThrottleService_1.ACCOUNT_SLOW_AFTER],
            [`address:${address}`, LoginThrottleService_1.ADDRESS_LIMIT, LoginThrottleService_1.ADDRESS_SLOW_AFTER],
        ];
    }
    recent(key, now) {
        const c = this.counters.get(key) ?? { failures: [], lockedUntil: 0 };
        c.failures = c.failures.filter((t) => now - t < LoginThrottleService_1.WINDOW_MS);
        return c;
    }
    /** Throws 429 while the account or the address is locked; otherwise waits as long as recent failures ask. */
    async check(account, address, now = Date.now()) {
        let delay = 0;
        for (const [key, , slowAfter] of this.keys(account, address)) {
            const c = this.recent(key, now);
            if (c.lockedUntil > now) {
                const minutes = Math.ceil((c.lockedUntil - now) / 60000);
                throw new app_exception_1.AppException(common_1.HttpStatus.TOO_MANY_REQUESTS, messages_1.ERROR_CODES.TOO_MANY_ATTEMPTS, `Too many failed sign-in attempts. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} before trying again.`, { retryAfterSeconds: Math.ceil((c.lockedUntil - now) / 1000) });
            }
            delay = Math.max(delay, (c.failures.length - slowAfter + 1) * LoginThrottleService_1.DELAY_STEP_MS);
        }
        if (delay > 0)
            await new Promise((r) => setTimeout(r, Math.min(delay, 3000)));
    }
    recordFailure(account, address, now = Date.now()) {
        for (const [key, limit] of this.keys(account, address)) {
            const c = this.recent(key, now);
            c.failures.push(now);
            if (c.failures.length >= limit)
                c.lockedUntil = now + LoginThrottleService_1.LOCK_MS;
            this.counters.set(key, c);
        }
        if (this.counters.size > 50_000)
            this.prune(now);
    }
    recordSuccess(account) {
        this.counters.delete(`account:${account.toLowerCase()}`);
    }
    prune(now) {
        for (const [key, c] of this.counters) {
            if (c.lockedUntil <= now && c.failures.every((t) => now - t >= LoginThrottleService_1.WINDOW_MS))
                this.counters.delete(key);
        }
    }
};
exports.LoginThrottleService = LoginThrottleService;
exports.LoginThrottleService = LoginThrottleService = LoginThrottleService_1 = __decorate([
    (0, common_1.Injectable)()
], LoginThrottleService);
//# sourceMappingURL=login-throttle.service.js.map