import { Transform } from 'class-transformer';
import { trimOrEmpty } from '../../../platform/web/transforms';
import { OmitOrValid } from '../../../platform/web/dto-validation';
import {
  ArrayContains,
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import { LIMITS } from '../../../shared/limits';
import {
  ACCOUNT_TYPES,
  AccountTypeName,
  APPLICATION_IDS,
  ORG_ADMIN_MESSAGES as M,
} from '../../../shared/administration/organisation-admin';
import { Role } from '../../../shared/roles';
import { SiteAdminCreation } from '../../../shared/api-types';

const EMAIL_OR_EMPTY = /^$|^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * POST /auth/site-admin (spec 001 §3 'Site admin creation payload', §5, §9). The application ids:
 * masterTaxManagerApplicationIds is [] (off, the default) or [1]; masterCorporateActionsApplicationIds
 * is always [2] (on and read-only in the form). userRoleIds is always [2] (Site Admin).
 * Optional fields may be left out (they take the defaults below); null is refused like any other wrong type.
 */
export class CreateSiteAdminDto implements SiteAdminCreation {
  @Transform(({ value }) =>
    typeof value === 'string' ? value.trim().toLowerCase() : value === undefined || value === null ? '' : value,
  )
  @IsString({ message: M.EMAIL_EMPTY })
  @IsNotEmpty({ message: M.EMAIL_EMPTY })
  @MaxLength(LIMITS.EMAIL_MAX, { message: M.EMAIL_TOO_LONG })
  @Matches(EMAIL_OR_EMPTY, { message: M.INVALID_EMAIL })
  userEmail = '';

  @OmitOrValid()
  @IsIn(ACCOUNT_TYPES, { message: M.ACCOUNT_TYPE_INVALID })
  accountType: AccountTypeName = 'Organization';

  /** Required for an Organization; an Individual account has no company name. */
  @Transform(trimOrEmpty)
  @ValidateIf((o: CreateSiteAdminDto) => o.accountType !== 'Individual')
  @IsString({ message: M.COMPANY_NAME_REQUIRED })
  @IsNotEmpty({ message: M.COMPANY_NAME_REQUIRED })
  @MaxLength(200, { message: 'Company name must be at most 200 characters' })
  organizationName = '';

  @Transform(trimOrEmpty)
  @IsString({ message: M.CODE_REQUIRED })
  @IsNotEmpty({ message: M.CODE_REQUIRED })
  @MaxLength(LIMITS.ORGANISATION_CODE_MAX, { message: M.CODE_TOO_LONG })
  organizationCode = '';

  @OmitOrValid()
  @IsInt({ message: M.ALLOWED_USERS_MIN })
  @Min(1, { message: M.ALLOWED_USERS_MIN })
  @Max(1_000_000, { message: 'Allowed users must be at most 1000000' })
  allowedUsersNumber = 1;

  @OmitOrValid()
  @IsInt({ message: M.CONCURRENT_USERS_MIN })
  @Min(1, { message: M.CONCURRENT_USERS_MIN })
  @Max(1_000_000, { message: 'Concurrent users must be at most 1000000' })
  maxConcurrentUsers = 1;

  @OmitOrValid()
  @IsInt({ message: M.MAX_PORTFOLIOS_NEGATIVE })
  @Min(0, { message: M.MAX_PORTFOLIOS_NEGATIVE })
  @Max(1_000_000, { message: 'Max portfolios must be at most 1000000' })
  maxPortfolios = 0;

  @OmitOrValid()
  @IsArray({ message: 'masterTaxManagerApplicationIds must be a list of application ids' })
  @IsIn([APPLICATION_IDS.TAX_MANAGER], {
    each: true,
    message: 'masterTaxManagerApplicationIds may hold only the tax manager application (1)',
  })
  @ArrayMaxSize(1, { message: 'masterTaxManagerApplicationIds may hold only the tax manager application (1)' })
  masterTaxManagerApplicationIds: number[] = [];

  @OmitOrValid()
  @IsArray({ message: M.CORPORATE_ACTIONS_APP_REQUIRED })
  @ArrayContains([APPLICATION_IDS.CA_VIEWER], { message: M.CORPORATE_ACTIONS_APP_REQUIRED })
  @IsIn([APPLICATION_IDS.CA_VIEWER], { each: true, message: M.CORPORATE_ACTIONS_APP_REQUIRED })
  @ArrayMaxSize(1, { message: M.CORPORATE_ACTIONS_APP_REQUIRED })
  masterCorporateActionsApplicationIds: number[] = [APPLICATION_IDS.CA_VIEWER];

  @OmitOrValid()
  @IsArray({ message: M.SITE_ADMIN_ROLE_ONLY })
  @ArrayContains([Role.SITE_ADMIN], { message: M.SITE_ADMIN_ROLE_ONLY })
  @IsIn([Role.SITE_ADMIN], { each: true, message: M.SITE_ADMIN_ROLE_ONLY })
  @ArrayMaxSize(1, { message: M.SITE_ADMIN_ROLE_ONLY })
  userRoleIds: number[] = [Role.SITE_ADMIN];

  @OmitOrValid()
  @IsBoolean({ message: 'isSSO must be true or false' })
  isSSO = false;

  /** Kept only when SSO is on (the field shows only then). */
  @IsOptional()
  @Transform(trimOrEmpty)
  @ValidateIf((o: CreateSiteAdminDto) => o.isSSO === true && o.ssoLogoutUrl !== '')
  @IsString({ message: M.SSO_LOGOUT_URL_INVALID })
  @MaxLength(500, { message: 'SSO logout URL must be at most 500 characters' })
  @IsUrl(
    { require_protocol: true, protocols: ['http', 'https'], require_tld: false },
    { message: M.SSO_LOGOUT_URL_INVALID },
  )
  ssoLogoutUrl?: string;
}
