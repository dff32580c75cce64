import { Module } from '@nestjs/common';
import { BootstrapService } from './bootstrap.service';
import { OrganisationsController } from './organisations.controller';
import { OrganisationsService } from './organisations.service';
import { SupportAccountsController } from './support-accounts.controller';
import { CredentialsModule } from '../../identity/credentials/credentials.module';
import { UsersModule } from '../../identity/users';

@Module({
  imports: [CredentialsModule, UsersModule],
  controllers: [OrganisationsController, SupportAccountsController],
  providers: [BootstrapService, OrganisationsService],
})
export class OrganisationsModule {}
