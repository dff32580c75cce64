import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Organisation } from '../organisations/entities/organisation.entity';
import { User } from './entities/user.entity';
import { OrganisationController } from './organisation.controller';
import { UsersController } from './users.controller';
import { UserCountCache } from './user-count-cache';
import { UsersService } from './users.service';

@Module({
  imports: [TypeOrmModule.forFeature([User, Organisation])],
  controllers: [UsersController, OrganisationController],
  providers: [UsersService, UserCountCache],
  exports: [UsersService],
})
export class UsersModule {}
