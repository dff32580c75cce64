import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AuthUser } from '../../platform/web/auth-user';
import { Access } from '../../platform/web/decorators/access.decorators';
import { CurrentUser } from '../../platform/web/decorators/current-user.decorator';
import { Answers } from '../../platform/openapi/decorators';
import { CAPABILITY_ROLES } from '../../shared/roles';
import { InsightsQueryDto } from './dto/insights-query.dto';
import { InsightsService } from './insights.service';

/**
 * Access: an organisation's insights are read by its site admins and administrators, and by E-Support for any
 * organisation (?organisationId=); another organisation's are a 404. Every organisation at a glance: E-Support only.
 */
@ApiTags('insights')
@Controller('api/insights')
export class InsightsController {
  constructor(private readonly insights: InsightsService) {}

  @Get()
  @Access({ roles: CAPABILITY_ROLES.INSIGHTS })
  @Answers(200, 'InsightsReport', 'The organisation’s figures for the period, day by day')
  report(@CurrentUser() caller: AuthUser, @Query() query: InsightsQueryDto) {
    return this.insights.report(caller, query);
  }

  @Get('organisations')
  @Access({ roles: CAPABILITY_ROLES.SUPPORT })
  @Answers(200, ['OrganisationGlance'], 'Every customer organisation, with a 30-day trend of sign-ins')
  glance() {
    return this.insights.glance();
  }
}
