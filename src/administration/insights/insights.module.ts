import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../../platform/audit';
import { Organisation } from '../../platform/database/entities/organisation.entity';
import { User } from '../../platform/database/entities/user.entity';
import { SessionsModule } from '../../identity/sessions';
import { InsightsDay } from './entities/insights-day.entity';
import { InsightsFailure } from './entities/insights-failure.entity';
import { InsightsController } from './insights.controller';
import { InsightsRecorder } from './insights-recorder.service';
import { InsightsService } from './insights.service';

/** Counts kept as sign-ins are audited, and the figures read from them. */
@Module({
  imports: [AuditModule, SessionsModule, TypeOrmModule.forFeature([InsightsDay, InsightsFailure, Organisation, User])],
  controllers: [InsightsController],
  providers: [InsightsRecorder, InsightsService],
  exports: [InsightsRecorder, InsightsService, TypeOrmModule],
})
export class InsightsModule {}
