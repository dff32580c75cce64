import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Organisation } from '../../platform/database/entities/organisation.entity';
import { AnnouncementsController } from './announcements.controller';
import { AnnouncementsService } from './announcements.service';
import { AnnouncementDismissal } from './entities/announcement-dismissal.entity';
import { Announcement } from './entities/announcement.entity';
import { AuditModule } from '../../platform/audit';

@Module({
  imports: [AuditModule, TypeOrmModule.forFeature([Announcement, AnnouncementDismissal, Organisation])],
  controllers: [AnnouncementsController],
  providers: [AnnouncementsService],
})
export class AnnouncementsModule {}
