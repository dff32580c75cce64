import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { User } from '../users/entities/user.entity';
import { UsersModule } from '../users/users.module';
import { MfaAdminController } from './mfa-admin.controller';
import { MfaAdminService } from './mfa-admin.service';
import { MfaController } from './mfa.controller';
import { MfaService } from './mfa.service';

@Module({
  imports: [TypeOrmModule.forFeature([User]), UsersModule],
  controllers: [MfaController, MfaAdminController],
  providers: [MfaService, MfaAdminService],
  exports: [MfaService],
})
export class MfaModule {}
