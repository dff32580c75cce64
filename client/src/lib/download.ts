import {
  ApiError,
  confirmIdentity,
  ErrorBody,
  isJwtExpired,
  isStepUpRequired,
  refreshAccessToken,
  resolveUrl,
  SESSION_EXPIRED_EVENT,
  tokenStore,
} from './api';

/** How far a download has come: bytes received, and the total when the server said it (streamed exports do not). */
export interface DownloadProgress {
  received: number;
  total: number | null;
}

/**
 * Downloads a file from the server with the access token (refreshing it once on 'jwt expired', like the
 * request layer), reporting progress as the body streams in, and hands it to the browser as a file.
 * The body is read chunk by chunk; only the finished file is kept (as a Blob) to save it.
 */
export async function downloadFile(
  path: string,
  fallbackName: string,
  onProgress: (p: DownloadProgress) => void,
  retried = false,
  steppedUp = false,
): Promise<void> {
  const { url } = resolveUrl(path);
  const token = tokenStore.get();
  const res = await fetch(url, { credentials: 'include', headers: token ? { Authorization: `Bearer ${token}` } : {} });
  if (!res.ok) {
    let body: ErrorBody;
    try {
      body = (await res.json()) as ErrorBody;
    } catch {
      body = { message: res.statusText };
    }
    if (!retried && isJwtExpired(res.status, body)) {
      if (await refreshAccessToken()) return downloadFile(path, fallbackName, onProgress, true, steppedUp);
      window.dispatchEvent(new Event(SESSION_EXPIRED_EVENT));
    } else if (!steppedUp && isStepUpRequired(res.status, body) && (await confirmIdentity())) {
      return downloadFile(path, fallbackName, onProgress, retried, true);
    }
    throw new ApiError(res.status, body);
  }
  const total = Number(res.headers.get('Content-Length')) || null;
  const chunks: Uint8Array[] = [];
  let received = 0;
  onProgress({ received, total });
  if (res.body) {
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      received += value.byteLength;
      onProgress({ received, total });
    }
  } else {
    const buffer = new Uint8Array(await res.arrayBuffer());
    chunks.push(buffer);
    onProgress({ received: buffer.byteLength, total });
  }
  const type = res.headers.get('Content-Type') ?? 'application/octet-stream';
  const name = /filename="([^"]+)"/.exec(res.headers.get('Content-Disposition') ?? '')?.[1] ?? fallbackName;
  saveBlob(new Blob(chunks as BlobPart[], { type }), name);
}

export function saveBlob(blob: Blob, name: string): void {
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

/** '1.2 MB', '340 KB', '12 B'. */
export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MB`;
  if (n >= 1024) return `${Math.round(n / 1024)} KB`;
  return `${n} B`;
}
