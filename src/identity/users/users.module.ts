import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Organisation } from '../../platform/database/entities/organisation.entity';
import { User } from '../../platform/database/entities/user.entity';
import { OrganisationController } from './organisation.controller';
import { UsersController } from './users.controller';
import { UserCountCache } from './user-count-cache';
import { UsersExportController } from './users-export.controller';
import { UsersExportService } from './users-export.service';
import { UsersService } from './users.service';
import { ProfileService } from './profile.service';
import { NewUserService } from './new-user.service';
import { UserSearchService } from './search/user-search.service';
import { CredentialsModule } from '../credentials/credentials.module';
import { AuditModule } from '../../platform/audit';
import { SessionsModule } from '../sessions';
import { DomainsModule } from '../domains';
import { AccountErasure } from './lifecycle/account-erasure';
import { AccountLifecycleService } from './lifecycle/account-lifecycle.service';

@Module({
  imports: [
    SessionsModule,
    AuditModule,
    CredentialsModule,
    DomainsModule,
    TypeOrmModule.forFeature([User, Organisation]),
  ],
  controllers: [UsersExportController, UsersController, OrganisationController],
  providers: [
    UsersService,
    ProfileService,
    NewUserService,
    UserSearchService,
    UserCountCache,
    UsersExportService,
    AccountLifecycleService,
    AccountErasure,
  ],
  exports: [UsersService, AccountLifecycleService],
})
export class UsersModule {}
