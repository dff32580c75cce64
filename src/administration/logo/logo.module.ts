import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Organisation } from '../../platform/database/entities/organisation.entity';
import { LogoUpload } from './entities/logo-upload.entity';
import { LogoRawBodyMiddleware } from './logo-raw-body.middleware';
import { LogoController } from './logo.controller';
import { LogoService } from './logo.service';
import { AuditModule } from '../../platform/audit';

@Module({
  imports: [AuditModule, TypeOrmModule.forFeature([LogoUpload, Organisation])],
  controllers: [LogoController],
  providers: [LogoService],
})
export class LogoModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(LogoRawBodyMiddleware).forRoutes({ path: 'api/logo/upload/:token', method: RequestMethod.PUT });
  }
}
