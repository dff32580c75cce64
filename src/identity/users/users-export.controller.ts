import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Response } from 'express';
import { sendCsv } from '../../platform/web/csv-response';
import { AuthUser } from '../../platform/web/auth-user';
import { Access } from '../../platform/web/decorators/access.decorators';
import { CurrentUser } from '../../platform/web/decorators/current-user.decorator';
import { CAPABILITY_ROLES } from '../../shared/roles';
import { UserListQueryDto } from './dto/user-list-query.dto';
import { USER_CSV_COLUMNS, UsersExportService } from './users-export.service';
import { Answers } from '../../platform/openapi/decorators';

/**
 * Access: as the user list (support, site admin, administrator, standard admin), confined to the caller's
 * organisation (E-Support: any, by organisationId); another organisation is a 404. Page and pageSize are ignored:
 * the export holds every user the filters match.
 */
@ApiTags('users')
@Controller('api/users')
export class UsersExportController {
  constructor(private readonly exports: UsersExportService) {}

  @Answers(200, { files: ['text/csv'] })
  @Get('export')
  @Access({ roles: CAPABILITY_ROLES.USER_LIST, stepUp: true })
  async export(@CurrentUser() caller: AuthUser, @Query() query: UserListQueryDto, @Res() res: Response): Promise<void> {
    const rows = await this.exports.open(caller, query);
    await sendCsv(res, 'users', USER_CSV_COLUMNS, rows);
  }
}
