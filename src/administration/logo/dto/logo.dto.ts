import { IsIn, IsInt, IsNotEmpty, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { LIMITS } from '../../../shared/limits';
import { LOGO_MIME_TYPES, ORG_ADMIN_MESSAGES as M } from '../../../shared/administration/organisation-admin';
import { LogoUploadRequest, SaveLogoRequest } from '../../../shared/api-types';

/** The path a stored logo is served from: /files/logos/<32 hex>.<ext>. */
export const LOGO_PATH_PATTERN = /^\/files\/logos\/([a-f0-9]{32}\.(?:png|jpg|gif|webp))$/;

export class LogoUploadUrlDto implements LogoUploadRequest {
  @IsString()
  @IsNotEmpty({ message: 'fileName is required' })
  @MaxLength(255, { message: 'fileName must be at most 255 characters' })
  fileName!: string;

  @IsInt({ message: 'fileSize must be the size of the file in bytes' })
  @Min(1, { message: 'fileSize must be the size of the file in bytes' })
  @Max(LIMITS.LOGO_MAX_BYTES, { message: M.LOGO_TOO_LARGE })
  fileSize!: number;

  @IsIn(LOGO_MIME_TYPES, { message: M.LOGO_NOT_IMAGE })
  mimeType!: string;
}

export class SaveLogoDto implements SaveLogoRequest {
  @IsString()
  @Matches(LOGO_PATH_PATTERN, { message: M.LOGO_NOT_UPLOADED })
  logoPath!: string;
}
