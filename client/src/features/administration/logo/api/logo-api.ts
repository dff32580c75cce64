import { useQuery } from '@tanstack/react-query';
import type { LogoInfo, LogoUploadUrl } from '@shared/api-types';
import { LIMITS } from '@shared/limits';
import { LOGO_MIME_TYPES, ORG_ADMIN_MESSAGES as M } from '@shared/administration/organisation-admin';
import { api, request } from '@/lib/api';
import { useAuth } from '@/lib/auth';
import { queryKeys } from '@/lib/query-keys';

/** Spec 001 §5/§9 in the client: an image (the raster types the server accepts), at most 10 MB. Null when fine. */
export function checkLogoFile(file: File): string | null {
  if (!(LOGO_MIME_TYPES as readonly string[]).includes(file.type)) return M.LOGO_NOT_IMAGE;
  if (file.size > LIMITS.LOGO_MAX_BYTES) return M.LOGO_TOO_LARGE;
  if (file.size === 0) return M.LOGO_NOT_IMAGE;
  return null;
}

/** Spec 001 §4: request an upload URL, upload the file to it, save the path. */
export async function uploadLogo(file: File): Promise<string> {
  const { uploadUrl, logoPath } = await api.post<LogoUploadUrl>('api/logo/get-upload-url', {
    fileName: file.name,
    fileSize: file.size,
    mimeType: file.type,
  });
  await request(uploadUrl, { method: 'PUT', body: file });
  await api.post('api/logo/save', { logoPath });
  return logoPath;
}

/** The organisation's logo: loaded on login (the key follows the token), cleared on logout (the cache is cleared). */
export function useLogo() {
  const { token } = useAuth();
  return useQuery({
    queryKey: [...queryKeys.logo, token],
    queryFn: () => api.get<LogoInfo>('api/logo/byMasterAccountId'),
    enabled: !!token,
    retry: false,
    staleTime: 5 * 60_000,
  });
}
