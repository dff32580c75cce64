import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Organisation } from '../../platform/database/entities/organisation.entity';
import { User } from '../../platform/database/entities/user.entity';
import { UserFeedback } from './entities/user-feedback.entity';
import { FeedbackController } from './feedback.controller';
import { FeedbackService } from './feedback.service';

@Module({
  imports: [TypeOrmModule.forFeature([UserFeedback, User, Organisation])],
  controllers: [FeedbackController],
  providers: [FeedbackService],
})
export class FeedbackModule {}
