import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Access } from '../../platform/web/decorators/access.decorators';
import { CAPABILITY_ROLES } from '../../shared/roles';
import { ListSystemInformationDto, RecordSystemEventDto } from './dto/system-information.dto';
import { SystemInfoService } from './system-info.service';
import { Answers } from '../../platform/openapi/decorators';

/**
 * Access: every signed-in role lists the system information (it is the same for every organisation);
 * only other back-end systems, with X-Api-Key = SERVICE_API_KEY, record events.
 */
@ApiTags('system-information')
@Controller('api/system-information')
export class SystemInfoController {
  constructor(private readonly systemInfo: SystemInfoService) {}

  @Answers(200, ['SystemInformationEntry'])
  @Post('all')
  @HttpCode(200)
  @Access({ roles: CAPABILITY_ROLES.SIGNED_IN })
  list(@Body() query: ListSystemInformationDto) {
    return this.systemInfo.list(query);
  }

  @Answers(201, 'SystemInformationEntry')
  @Post()
  @Access.serviceKey()
  record(@Body() dto: RecordSystemEventDto) {
    return this.systemInfo.record(dto);
  }
}
