import {
  applyDecorators,
  Body,
  Controller,
  createParamDecorator,
  ExecutionContext,
  Delete,
  Get,
  Headers,
  HttpCode,
  Inject,
  Param,
  Patch,
  Post,
  Put,
  Res,
  UseInterceptors,
} from '@nestjs/common';
import {
  ApiConsumes,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiProduces,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { Access } from '../../platform/web/decorators/access.decorators';
import { CurrentScimToken } from '../../platform/web/decorators/current-user.decorator';
import { Client, RequestContext } from '../../platform/web/request-context';
import { APP_CONFIG } from '../../platform/config/app-config.module';
import { AppConfig } from '../../platform/config/env.validation';
import { ScimCaller } from '../../platform/web/scim-caller';
import { ScimDocumentDto, ScimErrorDto, ScimGroupDto, ScimListDto, ScimUserDto } from './dto/scim-resource.dto';
import { scimError } from './scim-errors';
import { ScimGroupsService } from './scim-groups.service';
import { listResponse } from './scim-resource';
import { ScimResponseInterceptor } from './scim-response.interceptor';
import { resourceTypes, schemaDocuments, serviceProviderConfig } from './scim-schema';
import { ScimUsersService, Written } from './scim-users.service';

type Query = Record<string, unknown>;

/**
 * The query string as it came (filter, startIndex, count, attributes, excludedAttributes), read by the services'
 * own SCIM rules rather than a DTO: a directory adds parameters of its own, which RFC 7644 lets a provider ignore.
 */
const ScimQuery = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): Query => ctx.switchToHttp().getRequest<{ query: Query }>().query,
);

/** 412: the change named, in If-Match, a version other than the current one (RFC 7644 §3.14). */
const IfMatchFailed = () =>
  ApiResponse({ status: 412, type: ScimErrorDto, description: 'If-Match named another version' });

/** 304 with no body: If-None-Match named the current version (RFC 7644 §3.14). */
const NotModified = () => ApiResponse({ status: 304, description: 'If-None-Match named the current version' });

/** A User's PUT or PATCH that enables the account may pass the organisation's limit of active users. */
const EnablingRefused = () =>
  ApiResponse({
    status: 403,
    type: ScimErrorDto,
    description: 'Enabling: the organisation has its allowed active users',
  });

/** The refusals of a PUT or PATCH: those the resource adds, 409 (a uniqueness clash), 412. */
const ChangeResponses = (...resourceOwn: MethodDecorator[]) =>
  applyDecorators(...resourceOwn, ApiResponse({ status: 409, type: ScimErrorDto }), IfMatchFailed());

/**
 * Access: machine to machine. Every route is @Access.scim(): the caller is an organisation's directory presenting one of
 * its provisioning tokens as `Authorization: Bearer` (never a user's access token), and sees and changes only that
 * organisation's users and groups; another organisation's id is a 404.
 */
@ApiTags('scim')
@ApiProduces('application/scim+json')
@ApiConsumes('application/scim+json', 'application/json')
@ApiResponse({ status: 400, type: ScimErrorDto })
@ApiResponse({ status: 404, type: ScimErrorDto })
@Access.scim()
@UseInterceptors(ScimResponseInterceptor)
@Controller('scim/v2')
export class ScimController {
  constructor(
    private readonly users: ScimUsersService,
    private readonly groups: ScimGroupsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('ServiceProviderConfig')
  @ApiOkResponse({ type: ScimDocumentDto })
  serviceProviderConfig() {
    return serviceProviderConfig(this.config.publicUrl);
  }

  @Get('ResourceTypes')
  @ApiOkResponse({ type: ScimListDto })
  resourceTypes() {
    const all = resourceTypes(this.config.publicUrl);
    return listResponse(all, all.length, { startIndex: 1, count: all.length });
  }

  @Get('ResourceTypes/:id')
  @ApiOkResponse({ type: ScimDocumentDto })
  resourceType(@Param('id') id: string) {
    const found = resourceTypes(this.config.publicUrl).find((r) => r.id === id);
    if (!found) throw scimError(404, `Resource type ${id} not found.`);
    return found;
  }

  @Get('Schemas')
  @ApiOkResponse({ type: ScimListDto })
  schemas() {
    const all = schemaDocuments(this.config.publicUrl);
    return listResponse(all, all.length, { startIndex: 1, count: all.length });
  }

  @Get('Schemas/:id')
  @ApiOkResponse({ type: ScimDocumentDto })
  schema(@Param('id') id: string) {
    const found = schemaDocuments(this.config.publicUrl).find((s) => s.id === id);
    if (!found) throw scimError(404, `Schema ${id} not found.`);
    return found;
  }

  @Get('Users')
  @ApiOkResponse({ type: ScimListDto })
  listUsers(@CurrentScimToken() scim: ScimCaller, @ScimQuery() query: Query) {
    return this.users.list(scim, query);
  }

  @Post('Users')
  @ApiCreatedResponse({ type: ScimUserDto })
  @ApiResponse({ status: 403, type: ScimErrorDto, description: 'The organisation has its allowed active users' })
  @ApiResponse({ status: 409, type: ScimErrorDto, description: 'scimType uniqueness: the userName exists' })
  async createUser(
    @CurrentScimToken() scim: ScimCaller,
    @Body() body: unknown,
    @Client() client: RequestContext,
    @Res({ passthrough: true }) res: Response,
  ) {
    return created(res, await this.users.create(scim, body, client));
  }

  @Get('Users/:id')
  @ApiOkResponse({ type: ScimUserDto })
  @NotModified()
  async getUser(
    @CurrentScimToken() scim: ScimCaller,
    @Param('id') id: string,
    @ScimQuery() query: Query,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ) {
    return current(res, await this.users.get(scim, id, query), ifNoneMatch);
  }

  @Put('Users/:id')
  @ApiOkResponse({ type: ScimUserDto })
  @ChangeResponses(EnablingRefused())
  async replaceUser(
    @CurrentScimToken() scim: ScimCaller,
    @Param('id') id: string,
    @Body() body: unknown,
    @Headers('if-match') ifMatch: string | undefined,
    @Client() client: RequestContext,
    @Res({ passthrough: true }) res: Response,
  ) {
    return current(res, await this.users.replace(scim, id, body, ifMatch, client));
  }

  @Patch('Users/:id')
  @ApiOkResponse({ type: ScimUserDto })
  @ChangeResponses(EnablingRefused())
  async patchUser(
    @CurrentScimToken() scim: ScimCaller,
    @Param('id') id: string,
    @Body() body: unknown,
    @Headers('if-match') ifMatch: string | undefined,
    @Client() client: RequestContext,
    @Res({ passthrough: true }) res: Response,
  ) {
    return current(res, await this.users.patch(scim, id, body, ifMatch, client));
  }

  @Delete('Users/:id')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Removed' })
  @IfMatchFailed()
  deleteUser(
    @CurrentScimToken() scim: ScimCaller,
    @Param('id') id: string,
    @Headers('if-match') ifMatch: string | undefined,
    @Client() client: RequestContext,
  ): Promise<void> {
    return this.users.remove(scim, id, ifMatch, client);
  }

  @Get('Groups')
  @ApiOkResponse({ type: ScimListDto })
  listGroups(@CurrentScimToken() scim: ScimCaller, @ScimQuery() query: Query) {
    return this.groups.list(scim, query);
  }

  @Post('Groups')
  @ApiCreatedResponse({ type: ScimGroupDto })
  @ApiResponse({ status: 409, type: ScimErrorDto, description: 'scimType uniqueness: the displayName exists' })
  async createGroup(
    @CurrentScimToken() scim: ScimCaller,
    @Body() body: unknown,
    @Client() client: RequestContext,
    @Res({ passthrough: true }) res: Response,
  ) {
    return created(res, await this.groups.create(scim, body, client));
  }

  @Get('Groups/:id')
  @ApiOkResponse({ type: ScimGroupDto })
  @NotModified()
  async getGroup(
    @CurrentScimToken() scim: ScimCaller,
    @Param('id') id: string,
    @ScimQuery() query: Query,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ) {
    return current(res, await this.groups.get(scim, id, query), ifNoneMatch);
  }

  @Put('Groups/:id')
  @ApiOkResponse({ type: ScimGroupDto })
  @ChangeResponses()
  async replaceGroup(
    @CurrentScimToken() scim: ScimCaller,
    @Param('id') id: string,
    @Body() body: unknown,
    @Headers('if-match') ifMatch: string | undefined,
    @Client() client: RequestContext,
    @Res({ passthrough: true }) res: Response,
  ) {
    return current(res, await this.groups.replace(scim, id, body, ifMatch, client));
  }

  @Patch('Groups/:id')
  @ApiOkResponse({ type: ScimGroupDto })
  @ChangeResponses()
  async patchGroup(
    @CurrentScimToken() scim: ScimCaller,
    @Param('id') id: string,
    @Body() body: unknown,
    @Headers('if-match') ifMatch: string | undefined,
    @Client() client: RequestContext,
    @Res({ passthrough: true }) res: Response,
  ) {
    return current(res, await this.groups.patch(scim, id, body, ifMatch, client));
  }

  @Delete('Groups/:id')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Removed' })
  @IfMatchFailed()
  deleteGroup(
    @CurrentScimToken() scim: ScimCaller,
    @Param('id') id: string,
    @Headers('if-match') ifMatch: string | undefined,
    @Client() client: RequestContext,
  ): Promise<void> {
    return this.groups.remove(scim, id, ifMatch, client);
  }
}

/** 201 with the new resource's Location and ETag (RFC 7644 §3.3). */
function created(res: Response, w: Written): Record<string, unknown> {
  res.status(201);
  res.setHeader('Location', (w.resource.meta as { location: string }).location);
  if (w.version) res.setHeader('ETag', w.version);
  return w.resource;
}

/** The resource with its ETag; 304 with no body when If-None-Match names it (RFC 7644 §3.14). */
function current(res: Response, w: Written, ifNoneMatch?: string): Record<string, unknown> | undefined {
  if (!w.version) return w.resource;
  res.setHeader('ETag', w.version);
  if (ifNoneMatch && ifNoneMatch.split(',').some((t) => t.trim() === w.version || t.trim() === '*')) {
    res.status(304);
    return undefined;
  }
  return w.resource;
}
