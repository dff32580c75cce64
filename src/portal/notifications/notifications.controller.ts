import {
  Body,
  Controller,
  Get,
  HttpCode,
  Param,
  Post,
  Query,
  Res,
  StreamableFile,
  UploadedFile,
  UseInterceptors,
} from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { ApiConsumes, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { AppException } from '../../platform/web/app.exception';
import { AuthUser } from '../../platform/web/auth-user';
import { Access } from '../../platform/web/decorators/access.decorators';
import { CurrentUser } from '../../platform/web/decorators/current-user.decorator';
import { CAPABILITY_ROLES } from '../../shared/roles';
import { NotificationIdParam, PortfolioIdParam, PublishNotificationDto, UploadReportDto } from './dto/notification.dto';
import { FileArea, FileLinksService } from './file-links.service';
import { MAX_REPORT_BYTES, NotificationsService } from './notifications.service';
import { Answers, Errors } from '../../platform/openapi/decorators';

/**
 * Access: every signed-in role reads, reads-marks and dismisses its OWN notifications (its user's and
 * its organisation's; another organisation's notification is a 404). Publishing and report uploads
 * are for back-end systems only, with X-Api-Key = SERVICE_API_KEY.
 */
@ApiTags('notifications')
@Controller('api/notifications')
export class NotificationsController {
  constructor(private readonly notifications: NotificationsService) {}

  @Answers(200, ['NotificationItem'])
  @Get()
  @Access({ roles: CAPABILITY_ROLES.SIGNED_IN })
  list(@CurrentUser() user: AuthUser) {
    return this.notifications.list(user);
  }

  @Answers(200, 'SuccessOnly')
  @Post('dismiss-all')
  @HttpCode(200)
  @Access({ roles: CAPABILITY_ROLES.SIGNED_IN })
  dismissAll(@CurrentUser() user: AuthUser) {
    return this.notifications.dismissAll(user);
  }

  @Answers(200, 'SuccessOnly')
  @Post(':id/dismiss')
  @HttpCode(200)
  @Access({ roles: CAPABILITY_ROLES.SIGNED_IN })
  dismiss(@CurrentUser() user: AuthUser, @Param() { id }: NotificationIdParam) {
    return this.notifications.dismiss(user, id);
  }

  @Answers(200, 'SuccessOnly')
  @Post(':id/read')
  @HttpCode(200)
  @Access({ roles: CAPABILITY_ROLES.SIGNED_IN })
  markRead(@CurrentUser() user: AuthUser, @Param() { id }: NotificationIdParam) {
    return this.notifications.markRead(user, id);
  }

  @Answers(201, 'NotificationPublished')
  @Post()
  @HttpCode(201)
  @Access.serviceKey()
  publish(@Body() dto: PublishNotificationDto) {
    return this.notifications.publish(dto);
  }

  @Answers(201, 'ReportStored')
  @Post('reports')
  @HttpCode(201)
  @Access.serviceKey()
  @ApiConsumes('multipart/form-data')
  @UseInterceptors(FileInterceptor('file', { limits: { fileSize: MAX_REPORT_BYTES, files: 1 } }))
  uploadReport(
    @Body() dto: UploadReportDto,
    @UploadedFile() file: { originalname?: string; buffer?: Buffer; size?: number } | undefined,
  ) {
    return this.notifications.storeReport(dto.organisationId, file);
  }
}

/** Access: every signed-in role, for its own organisation's process logs only. */
@ApiTags('notifications')
@Controller('api/processedData')
export class ProcessedDataController {
  constructor(private readonly notifications: NotificationsService) {}

  @Answers(200, 'ProcessLogUrlResponse')
  @Get('processLogUrl/:portfolioId')
  @Access({ roles: CAPABILITY_ROLES.SIGNED_IN })
  processLogUrl(@CurrentUser() user: AuthUser, @Param() { portfolioId }: PortfolioIdParam) {
    return this.notifications.processLogUrl(user, portfolioId);
  }
}

/**
 * Access: public, but only through a link this server signed within the last hour (spec 001 §9);
 * a tampered or expired link is a 403. Serves /files/reports/... and /files/process-logs/... only.
 */
@ApiTags('notifications')
@Controller('files')
export class SignedFilesController {
  constructor(private readonly links: FileLinksService) {}

  @Answers(200, { files: ['application/octet-stream'] })
  @Errors(403)
  @Get('reports/:organisationId/:name')
  @Access.public()
  report(
    @Param('organisationId') org: string,
    @Param('name') name: string,
    @Query() q: Record<string, unknown>,
    @Res({ passthrough: true }) res: Response,
  ) {
    return this.serve('reports', org, name, q, res);
  }

  @Answers(200, { files: ['application/octet-stream'] })
  @Errors(403)
  @Get('process-logs/:organisationId/:name')
  @Access.public()
  processLog(
    @Param('organisationId') org: string,
    @Param('name') name: string,
    @Query() q: Record<string, unknown>,
    @Res({ passthrough: true }) res: Response,
  ) {
    return this.serve('process-logs', org, name, q, res);
  }

  private async serve(
    area: FileArea,
    org: string,
    name: string,
    q: Record<string, unknown>,
    res: Response,
  ): Promise<StreamableFile> {
    const link = this.links.verify(area, org, name, q.expires, q.sig);
    const data = await this.links.read(link.area, link.organisationId, link.name);
    if (!data) throw AppException.notFound('The file is no longer available.');
    // Stored reports carry a random prefix; the download is named after the original file.
    const shown = area === 'reports' ? name.replace(/^[0-9a-f]{12}-/, '') : name;
    res.setHeader('Cache-Control', 'private, no-store');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    return new StreamableFile(data, {
      type: 'application/octet-stream',
      disposition: `attachment; filename="${shown.replace(/"/g, '')}"`,
    });
  }
}
