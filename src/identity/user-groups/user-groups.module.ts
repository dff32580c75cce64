import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { UsersModule } from '../users';
import { UserGroupMember } from './entities/user-group-member.entity';
import { UserGroup } from './entities/user-group.entity';
import { UserGroupsController } from './user-groups.controller';
import { UserGroupsService } from './user-groups.service';

@Module({
  imports: [TypeOrmModule.forFeature([UserGroup, UserGroupMember]), UsersModule],
  controllers: [UserGroupsController],
  providers: [UserGroupsService],
})
export class UserGroupsModule {}
