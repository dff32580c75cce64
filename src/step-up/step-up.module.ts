import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { AuthModule } from '../auth/auth.module';
import { CredentialsModule } from '../credentials/credentials.module';
import { MfaModule } from '../mfa/mfa.module';
import { PasskeysModule } from '../passkeys/passkeys.module';
import { IdentityProofs } from './identity-proofs';
import { StepUpController } from './step-up.controller';
import { StepUpService } from './step-up.service';

/**
 * Re-authentication before sensitive calls (docs/product-rules.md §7): the proofs of POST /auth/step-up, the mark
 * on the session, and the guard of `@Access({ stepUp })` (registered globally by app.module from here).
 */
@Module({
  imports: [AuditModule, CredentialsModule, AuthModule, MfaModule, PasskeysModule],
  controllers: [StepUpController],
  providers: [StepUpService, IdentityProofs],
  exports: [StepUpService],
})
export class StepUpModule {}
