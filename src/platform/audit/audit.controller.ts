import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Response } from 'express';
import { AuthUser } from '../web/auth-user';
import { Access } from '../web/decorators/access.decorators';
import { CurrentUser } from '../web/decorators/current-user.decorator';
import { AUDIT_CSV_COLUMNS } from '../../shared/audit';
import { formatClientAddress } from '../../shared/display-formats';
import { AuditService } from './audit.service';
import { AuditEventQueryDto } from './dto/audit-event-query.dto';
import { mapBatches, sendCsv } from '../web/csv-response';
import { CAPABILITY_ROLES } from '../../shared/roles';
import { Answers } from '../openapi/decorators';

/**
 * Access: site admins and administrators read their organisation's events, E-Support every
 * organisation's; other roles none. The export applies the page's filters and streams every matching event.
 */
@ApiTags('audit')
@Controller('api/audit-events')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @Answers(200, 'AuditEventPage')
  @Get()
  @Access({ roles: CAPABILITY_ROLES.AUDIT_LOG, apiKey: 'audit:read' })
  list(@CurrentUser() caller: AuthUser, @Query() query: AuditEventQueryDto) {
    return this.audit.list(caller, query);
  }

  @Answers(200, { files: ['text/csv'] })
  @Get('export')
  @Access({ roles: CAPABILITY_ROLES.AUDIT_LOG, stepUp: true })
  async export(
    @CurrentUser() caller: AuthUser,
    @Query() query: AuditEventQueryDto,
    @Res() res: Response,
  ): Promise<void> {
    const batches = this.audit.exportBatches(caller, query);
    await sendCsv(
      res,
      'audit-log',
      AUDIT_CSV_COLUMNS,
      // Read by people in a spreadsheet: addresses as the pages show them; times stay ISO 8601.
      mapBatches(batches, (e) => AUDIT_CSV_COLUMNS.map((c) => (c === 'ip' ? formatClientAddress(e.ip) : e[c]))),
    );
  }
}
