import { Module } from '@nestjs/common';
import { AuditModule } from '../../platform/audit';
import { AuthModule } from '../auth';
import { CredentialsModule } from '../credentials/credentials.module';
import { FederationModule } from '../federation';
import { MfaModule } from '../mfa';
import { PasskeysModule } from '../passkeys';
import { IdentityProofs } from './identity-proofs';
import { SsoStepUpController } from './sso-step-up.controller';
import { SsoStepUpRoundTrip } from './sso-step-up.service';
import { StepUpController } from './step-up.controller';
import { StepUpService } from './step-up.service';

/**
 * Re-authentication before sensitive calls (docs/product-rules.md §7): the proofs of POST /auth/step-up, the mark
 * on the session, the guard of `@Access({ stepUp })` (registered globally by app.module from here), and the step-up
 * at the person's identity provider, whose round trip federation runs and whose end this module registers there.
 */
@Module({
  imports: [AuditModule, CredentialsModule, AuthModule, MfaModule, PasskeysModule, FederationModule],
  controllers: [StepUpController, SsoStepUpController],
  providers: [StepUpService, IdentityProofs, SsoStepUpRoundTrip],
  exports: [StepUpService],
})
export class StepUpModule {}
