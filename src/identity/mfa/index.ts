/** What the mfa feature offers the rest of the server: other features import it from here, never from its files. */
export { MfaModule } from './mfa.module';
export { MfaService } from './mfa.service';
export { RecoveryCodesService } from './recovery-codes.service';
