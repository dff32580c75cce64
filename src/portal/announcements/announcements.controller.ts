import { Body, Controller, Get, HttpCode, Param, ParseIntPipe, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AuthUser } from '../../platform/web/auth-user';
import { Access } from '../../platform/web/decorators/access.decorators';
import { CurrentUser } from '../../platform/web/decorators/current-user.decorator';
import { Client, RequestContext } from '../../platform/web/request-context';
import { CAPABILITY_ROLES } from '../../shared/roles';
import { AnnouncementsService } from './announcements.service';
import { CreateAnnouncementDto } from './dto/create-announcement.dto';
import { Answers } from '../../platform/openapi/decorators';

/**
 * Access: only E-Support publishes (to every organisation or one) and lists the organisations it may address. Every signed-in role lists, reads the
 * summary of and dismisses the announcements published to everyone and to its own organisation
 * (E-Support: all); another organisation's announcement is answered 404.
 */
@ApiTags('announcements')
@Controller('api/announcements')
export class AnnouncementsController {
  constructor(private readonly announcements: AnnouncementsService) {}

  @Answers(201, 'AnnouncementItem')
  @Post()
  @Access({ roles: CAPABILITY_ROLES.SUPPORT })
  create(@CurrentUser() user: AuthUser, @Body() dto: CreateAnnouncementDto, @Client() client: RequestContext) {
    return this.announcements.create(user, dto, client);
  }

  @Answers(200, ['AnnouncementItem'])
  @Get()
  @Access({ roles: CAPABILITY_ROLES.SIGNED_IN })
  list(@CurrentUser() user: AuthUser) {
    return this.announcements.list(user);
  }

  @Answers(200, ['AnnouncementAudience'])
  @Get('organisations')
  @Access({ roles: CAPABILITY_ROLES.SUPPORT })
  audiences() {
    return this.announcements.audiences();
  }

  @Answers(200, 'AnnouncementSummary')
  @Get('summary')
  @Access({ roles: CAPABILITY_ROLES.SIGNED_IN })
  summary(@CurrentUser() user: AuthUser) {
    return this.announcements.summary(user);
  }

  @Answers(200, 'SuccessOnly')
  @Post(':id/dismiss')
  @HttpCode(200)
  @Access({ roles: CAPABILITY_ROLES.SIGNED_IN })
  dismiss(@CurrentUser() user: AuthUser, @Param('id', ParseIntPipe) id: number) {
    return this.announcements.dismiss(user, id);
  }
}
