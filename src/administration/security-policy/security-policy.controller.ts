import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AuthUser } from '../../platform/web/auth-user';
import { Access } from '../../platform/web/decorators/access.decorators';
import { CurrentUser } from '../../platform/web/decorators/current-user.decorator';
import { ParseIdPipe } from '../../platform/web/pipes/parse-id.pipe';
import { Client, RequestContext } from '../../platform/web/request-context';
import { Answers } from '../../platform/openapi/decorators';
import { CAPABILITY_ROLES } from '../../shared/roles';
import { SecurityPolicyChangeDto } from './dto/security-policy.dto';
import { SecurityPolicyService } from './security-policy.service';

/**
 * Access: an organisation's security policy is read by its site admins and administrators and E-Support, and
 * changed by its site admins and E-Support (a sensitive call: step-up). Another organisation's id is a 404 to
 * everyone but E-Support. `{id}` is GET /auth/organisation's `id`.
 */
@ApiTags('security-policy')
@Controller('api/organisations/:id/security-policy')
export class SecurityPolicyController {
  constructor(private readonly policies: SecurityPolicyService) {}

  @Get()
  @Access({ roles: CAPABILITY_ROLES.SECURITY_POLICY_READ })
  @Answers(200, 'SecurityPolicy', "The organisation's security policy")
  get(@CurrentUser() caller: AuthUser, @Param('id', ParseIdPipe) id: number) {
    return this.policies.get(caller, id);
  }

  @Put()
  @Access({ roles: CAPABILITY_ROLES.SECURITY_POLICY_MANAGE, stepUp: true })
  // 400 POLICY_LOCKS_YOU_OUT: the ranges would exclude the caller's own address.
  @Answers(200, 'SecurityPolicy', 'Saved: the fields sent changed, the others stayed; in force on the next call')
  change(
    @CurrentUser() caller: AuthUser,
    @Param('id', ParseIdPipe) id: number,
    @Body() dto: SecurityPolicyChangeDto,
    @Client() client: RequestContext,
  ) {
    return this.policies.change(caller, id, dto, client);
  }
}
