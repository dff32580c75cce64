import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OutboxMessage } from './entities/outbox-message.entity';
import { MailService } from './mail.service';

@Global()
@Module({ imports: [TypeOrmModule.forFeature([OutboxMessage])], providers: [MailService], exports: [MailService] })
export class MailModule {}
