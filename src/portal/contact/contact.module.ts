import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { User } from '../../platform/database/entities/user.entity';
import { ContactController } from './contact.controller';
import { ContactService } from './contact.service';
import { CredentialsModule } from '../../identity/credentials/credentials.module';

@Module({
  imports: [CredentialsModule, TypeOrmModule.forFeature([User])],
  controllers: [ContactController],
  providers: [ContactService],
})
export class ContactModule {}
