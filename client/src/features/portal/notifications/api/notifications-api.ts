import type { NotificationItem, ProcessLogUrlResponse } from '@shared/portal/notifications';
import { api, ApiError, type ErrorBody } from '@/lib/api';
import { reportFileName } from '../display';

export const notificationsApi = {
  list: () => api.get<NotificationItem[]>('api/notifications'),
  dismiss: (id: number) => api.post<{ success: boolean }>(`api/notifications/${id}/dismiss`),
  dismissAll: () => api.post<{ success: boolean }>('api/notifications/dismiss-all'),
  processLogUrl: (portfolioId: string) =>
    api.get<ProcessLogUrlResponse>(`api/processedData/processLogUrl/${encodeURIComponent(portfolioId)}`),
};

const API_BASE: string = (import.meta.env.VITE_API_URL as string | undefined)?.replace(/\/+$/, '') ?? '';

/** Our signed /files/... links live on the API host; anything else is used as it is. */
export function absoluteLink(link: string): string {
  return link.startsWith('/files/') ? `${API_BASE}${link}` : link;
}

/** Saves a blob under a file name through a temporary link. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Spec 001 §7 report download: a GET of the download link as a blob, saved as a file with a
 * sanitised name or Report_{timestamp}. Throws ApiError (e.g. 403 'This download link has expired.').
 */
export async function downloadReport(link: string, fileName?: string): Promise<string> {
  const own = link.startsWith('/files/');
  let res: Response;
  try {
    res = await fetch(absoluteLink(link), { credentials: own ? 'same-origin' : 'omit' });
  } catch (e) {
    // Another host that does not allow reading its files from here: let the browser fetch it.
    if (!own && /^https?:\/\//.test(link)) {
      window.open(link, '_blank', 'noopener');
      return reportFileName(fileName, link);
    }
    throw e;
  }
  if (!res.ok) {
    let body: ErrorBody = { message: res.statusText };
    try {
      body = (await res.json()) as ErrorBody;
    } catch {
      // not JSON
    }
    throw new ApiError(res.status, body);
  }
  const name = reportFileName(fileName, link);
  saveBlob(await res.blob(), name);
  return name;
}
