import { Global, Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { hmacKey } from '../common/crypto/secrets';
import { APP_CONFIG } from '../config/app-config.module';
import { AppConfig } from '../config/env.validation';
import { PasswordService } from './password.service';
import { TokenService } from './token.service';

/** Token signing and password hashing, shared by auth, mfa, users and the notifications gateway. */
@Global()
@Module({
  imports: [
    JwtModule.registerAsync({
      inject: [APP_CONFIG],
      // A KeyObject, not the string: see hmacKey.
      useFactory: (config: AppConfig) => ({ secret: hmacKey(config.jwtSecret), signOptions: { algorithm: 'HS256' }, verifyOptions: { algorithms: ['HS256'] } }),
    }),
  ],
  providers: [TokenService, PasswordService],
  exports: [TokenService, PasswordService, JwtModule],
})
export class CredentialsModule {}
