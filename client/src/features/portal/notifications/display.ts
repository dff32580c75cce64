import { SILENT_TYPES, type NotificationItem, type NotificationType } from '@shared/portal/notifications';
import { formatDayText } from '@/lib/formats';

/**
 * The display rules of the notifications (spec 001 §4 'Notification display', §8 'Notification toasts',
 * §9 formats), as pure functions so that each rule is tested on its own.
 */

/** Spec 001 §4: HOLDER_DOWNLOAD and UNMAPPED_DOC_COUNT never enter the list. */
export function isSilent(type: NotificationType | string): boolean {
  return (SILENT_TYPES as readonly string[]).includes(type);
}

/** Status shown upper-cased, defaulting to 'NOT STARTED' (an import defaults to 'SCHEDULED'). */
export function displayStatus(n: Pick<NotificationItem, 'type' | 'content'>): string {
  const status = n.content.status?.trim();
  if (status) return status.toUpperCase();
  return n.type === 'IMPORT_FILE' ? 'SCHEDULED' : 'NOT STARTED';
}

const status = (n: Pick<NotificationItem, 'content'>) => n.content.status?.trim().toUpperCase() ?? '';
const isFailed = (n: Pick<NotificationItem, 'content'>) => status(n) === 'FAILED';
const isSuccess = (n: Pick<NotificationItem, 'content'>) =>
  ['DONE', 'COMPLETED', 'COMPLETE', 'SUCCESS', 'SUCCEEDED'].includes(status(n));

/** FAILED with a message: the message is shown in red. */
export function failureMessage(n: Pick<NotificationItem, 'content'>): string | null {
  return isFailed(n) && n.content.message?.trim() ? n.content.message.trim() : null;
}

/** A download link shows when the status is Done or a link exists. */
export function showDownloadLink(n: Pick<NotificationItem, 'content'>): boolean {
  return status(n) === 'DONE' || !!n.content.downloadLink;
}

const TITLES: Record<NotificationType, string> = {
  REPORT: 'Report',
  PORTFOLIO_PROCESSING: 'Portfolio processing',
  PROCESS_LOG: 'Process log',
  HOLDER_DOWNLOAD: 'Registry download',
  HOLDER_DOWNLOAD_STATUS: 'Registry download',
  RELEASE_NOTES: 'Release notes',
  CONTRACT_NOTES: 'Contract notes',
  IMPORT_FILE: 'File import',
  UNMAPPED_DOC_COUNT: 'Unmapped documents',
  PORTFOLIO_TRANSFER: 'Portfolio transfer',
  OTHER: 'Notification',
};

export function notificationTitle(n: Pick<NotificationItem, 'type' | 'content'>): string {
  const base = TITLES[n.type] ?? 'Notification';
  return n.content.subCategory ? `${base}: ${n.content.subCategory}` : base;
}

/** 'Name (CODE)', 'Name', 'CODE' or ''. */
export function portfolioLabel(n: Pick<NotificationItem, 'content'>): string {
  const { portfolioName: name, portfolioCode: code } = n.content;
  if (name && code) return `${name} (${code})`;
  return name || code || '';
}

/** The lines under the title: portfolio, file, period, summary or message (a failure message goes red instead). */
export function notificationDetails(n: Pick<NotificationItem, 'type' | 'content'>): string[] {
  const c = n.content;
  const lines: string[] = [];
  const portfolio = portfolioLabel(n);
  if (portfolio) lines.push(portfolio);
  if (c.fileName) lines.push(c.fileName);
  if (c.startDate || c.endDate) {
    lines.push(`${formatDayText(c.startDate ?? '')} – ${formatDayText(c.endDate ?? '')}`.trim());
  }
  if (c.summary) lines.push(c.summary);
  if (c.message && !failureMessage(n)) lines.push(c.message);
  return lines;
}

export type ToastType = 'success' | 'error' | 'info' | 'warning';
export interface ToastSpec {
  type: ToastType;
  title: string;
  description?: string;
}

const mentionsNoData = (message: string | undefined) => /\bno data\b/i.test(message ?? '');

/**
 * Spec 001 §8 notification toasts; null when the message raises none. Texts the specification
 * fixes: '{file} imported successfully', 'Failed to import {file}', 'Failed to download registry data'.
 */
export function notificationToast(n: Pick<NotificationItem, 'type' | 'content'>): ToastSpec | null {
  const c = n.content;
  const portfolio = portfolioLabel(n) || undefined;
  switch (n.type) {
    case 'REPORT': {
      if (!isFailed(n) && !isSuccess(n)) return null;
      // Spec 001 §8, as written: done or failed, info level when the message mentions no data, otherwise error.
      if (mentionsNoData(c.message)) return { type: 'info', title: 'Report', description: c.message };
      if (isFailed(n)) return { type: 'error', title: 'Report failed', description: c.message || portfolio };
      return { type: 'error', title: 'Report ready', description: c.fileName || c.message || portfolio };
    }
    case 'CONTRACT_NOTES':
      return isFailed(n)
        ? { type: 'error', title: 'Contract notes failed', description: c.message || portfolio }
        : { type: 'info', title: 'Contract notes', description: c.message || c.summary || portfolio };
    case 'IMPORT_FILE': {
      const file = c.fileName ?? 'file';
      if (isSuccess(n)) return { type: 'success', title: `${file} imported successfully` };
      if (isFailed(n)) return { type: 'error', title: `Failed to import ${file}`, description: c.message };
      return null;
    }
    case 'PORTFOLIO_PROCESSING':
      if (isSuccess(n)) return { type: 'success', title: 'Portfolio processing completed', description: portfolio };
      if (isFailed(n))
        return { type: 'error', title: 'Portfolio processing failed', description: c.message || portfolio };
      return null;
    case 'PORTFOLIO_TRANSFER':
      if (isSuccess(n)) return { type: 'success', title: 'Portfolio transfer completed', description: portfolio };
      if (isFailed(n))
        return { type: 'error', title: 'Portfolio transfer failed', description: c.message || portfolio };
      return null;
    case 'RELEASE_NOTES':
      return { type: 'info', title: 'Release notes', description: c.summary || c.message };
    case 'HOLDER_DOWNLOAD':
    case 'HOLDER_DOWNLOAD_STATUS':
      return isFailed(n) ? { type: 'error', title: 'Failed to download registry data', description: c.message } : null;
    case 'OTHER':
      return c.message || c.summary
        ? { type: isFailed(n) ? 'error' : 'info', title: 'Notification', description: c.message || c.summary }
        : null;
    default:
      return null;
  }
}

/** Spec 001 §4: processing completion or failure triggers a process-log check (by the portfolio's id or code). */
export function processLogPortfolio(n: Pick<NotificationItem, 'type' | 'content'>): string | null {
  if (n.type !== 'PORTFOLIO_PROCESSING' || !(isSuccess(n) || isFailed(n))) return null;
  const id = n.content.portfolioCode?.trim();
  return id && /^[A-Za-z0-9][A-Za-z0-9_-]{0,49}$/.test(id) ? id : null;
}

/** The 'warning logs' info toast after a process-log check found a log. */
export function warningLogsToast(n: Pick<NotificationItem, 'content'>): ToastSpec {
  const portfolio = portfolioLabel(n);
  return {
    type: 'info',
    title: 'Warning logs available',
    description: portfolio ? `Processing of ${portfolio} wrote warning logs.` : 'Processing wrote warning logs.',
  };
}

/** Keeps letters, digits, dot, dash, underscore, space and brackets; no path, no leading dots. */
export function sanitiseFileName(name: string | undefined | null): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  return base
    .replace(/[^A-Za-z0-9._ ()-]+/g, '_')
    .replace(/\.{2,}/g, '.')
    .replace(/^[._ ]+/, '')
    .trim()
    .slice(0, 150);
}

/** Spec 001 §7 report download: a sanitised file name, or Report_{timestamp}. */
export function reportFileName(
  fileName: string | undefined,
  link: string | undefined,
  now: number = Date.now(),
): string {
  const fromName = sanitiseFileName(fileName);
  if (fromName && /[A-Za-z0-9]/.test(fromName)) return fromName;
  if (link) {
    try {
      const last = new URL(link, 'http://x').pathname.split('/').pop() ?? '';
      const fromLink = sanitiseFileName(decodeURIComponent(last).replace(/^[0-9a-f]{12}-/, ''));
      if (fromLink && /[A-Za-z0-9]/.test(fromLink)) return fromLink;
    } catch {
      // fall through
    }
  }
  return `Report_${now}`;
}
