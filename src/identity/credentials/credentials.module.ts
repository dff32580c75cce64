import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { hmacKey } from '../../platform/crypto/secrets';
import { APP_CONFIG } from '../../platform/config/app-config.module';
import { AppConfig } from '../../platform/config/env.validation';
import { BreachedPasswordsService } from './breached-passwords.service';
import { PasswordService } from './password.service';
import { JwtStrategy } from './jwt.strategy';
import { PassportVerifiedTokens } from './passport-verified-tokens';
import { ApiKeyAuthService } from './api-key-auth.service';
import { ScimTokenAuthService } from './scim-token-auth.service';
import { SessionAuthService } from './session-auth.service';
import { TokenService } from './token.service';
import { RefreshTokenService } from './refresh-token.service';
import { RefreshToken } from './entities/refresh-token.entity';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Organisation } from '../../platform/database/entities/organisation.entity';
import { PasswordRulesService } from './password-rules.service';

/**
 * The credentials layer, below every feature: password hashing, token signing, rotating refresh tokens, and the one
 * check of an access token (SessionAuthService.authenticate) that the HTTP guard (through the passport-jwt
 * JwtStrategy), the notifications socket and GET /auth/status use, and the check of a directory's provisioning token
 * (ScimTokenAuthService) and of an organisation API key (ApiKeyAuthService).
 * It imports no feature; features import it.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([RefreshToken, Organisation]),
    JwtModule.registerAsync({
      inject: [APP_CONFIG],
      // A KeyObject, not the string: see hmacKey.
      useFactory: (config: AppConfig) => ({
        secret: hmacKey(config.jwtSecret),
        signOptions: { algorithm: 'HS256' },
        verifyOptions: { algorithms: ['HS256'] },
      }),
    }),
  ],
  providers: [
    TokenService,
    PasswordService,
    SessionAuthService,
    JwtStrategy,
    { provide: PassportVerifiedTokens, useFactory: () => new PassportVerifiedTokens() },
    BreachedPasswordsService,
    PasswordRulesService,
    ScimTokenAuthService,
    ApiKeyAuthService,
    RefreshTokenService,
  ],
  exports: [
    TokenService,
    PasswordService,
    SessionAuthService,
    PassportVerifiedTokens,
    BreachedPasswordsService,
    PasswordRulesService,
    ScimTokenAuthService,
    ApiKeyAuthService,
    RefreshTokenService,
    JwtModule,
  ],
})
export class CredentialsModule {}
