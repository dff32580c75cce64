import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Organisation } from '../../platform/database/entities/organisation.entity';
import { SessionsModule } from '../sessions';
import { UserGroup, UserGroupMember } from '../user-groups';
import { User } from '../../platform/database/entities/user.entity';
import { UsersModule } from '../users';
import { ScimToken } from './entities/scim-token.entity';
import { ScimGroupsService } from './scim-groups.service';
import { ScimResponseInterceptor } from './scim-response.interceptor';
import { ScimTokensController } from './scim-tokens.controller';
import { ScimTokensService } from './scim-tokens.service';
import { ScimUsersService } from './scim-users.service';
import { ScimController } from './scim.controller';
import { AuditModule } from '../../platform/audit';

/** Directory provisioning: the organisations' provisioning tokens (/api/scim-tokens) and SCIM 2.0 (/scim/v2). */
@Module({
  imports: [
    AuditModule,
    TypeOrmModule.forFeature([ScimToken, Organisation, User, UserGroup, UserGroupMember]),
    UsersModule,
    SessionsModule,
  ],
  controllers: [ScimTokensController, ScimController],
  providers: [ScimTokensService, ScimUsersService, ScimGroupsService, ScimResponseInterceptor],
})
export class ScimModule {}
