/** What the passkeys feature offers the rest of the server: other features import it from here, never from its files. */
export { AuthenticationCredentialDto } from './dto/passkey.dto';
export { PASSKEY_RATE_LIMITS } from './passkeys.controller';
export { PasskeysModule } from './passkeys.module';
export { PasskeysService, removeAllPasskeys, removePasskeysAddedSince } from './passkeys.service';
export type { AssertionResult } from './passkeys.service';
