import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MfaModule } from '../mfa/mfa.module';
import { User } from '../users/entities/user.entity';
import { UsersModule } from '../users/users.module';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { PasswordResetToken } from './entities/password-reset-token.entity';
import { JwtStrategy } from './jwt.strategy';
import { LoginThrottleService } from './login-throttle.service';

@Module({
  imports: [PassportModule, TypeOrmModule.forFeature([User, PasswordResetToken]), UsersModule, MfaModule],
  controllers: [AuthController],
  providers: [AuthService, LoginThrottleService, JwtStrategy],
  exports: [AuthService],
})
export class AuthModule {}
