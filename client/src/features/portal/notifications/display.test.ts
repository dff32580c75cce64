import { describe, expect, it } from 'vitest';
import { NOTIFICATION_TYPES, type NotificationItem, type NotificationType } from '@shared/portal/notifications';
import {
  displayStatus,
  failureMessage,
  isSilent,
  notificationDetails,
  notificationToast,
  processLogPortfolio,
  reportFileName,
  sanitiseFileName,
  showDownloadLink,
} from './display';

const n = (type: NotificationType, content: NotificationItem['content'] = {}): NotificationItem => ({
  notificationId: 1,
  read: false,
  date: '2026-03-05T04:07:00.000Z',
  type,
  content,
});

describe('silent types (spec 001 §4)', () => {
  it('HOLDER_DOWNLOAD and UNMAPPED_DOC_COUNT are silent, every other type is listed', () => {
    expect(NOTIFICATION_TYPES.filter(isSilent)).toEqual(['HOLDER_DOWNLOAD', 'UNMAPPED_DOC_COUNT']);
  });
});

describe('status (spec 001 §4)', () => {
  it('is upper-cased', () => {
    expect(displayStatus(n('REPORT', { status: 'in progress' }))).toBe('IN PROGRESS');
    expect(displayStatus(n('IMPORT_FILE', { status: 'Failed' }))).toBe('FAILED');
  });
  it("defaults to 'NOT STARTED', and an import to 'SCHEDULED'", () => {
    for (const type of NOTIFICATION_TYPES.filter((t) => t !== 'IMPORT_FILE'))
      expect([type, displayStatus(n(type))]).toEqual([type, 'NOT STARTED']);
    expect(displayStatus(n('IMPORT_FILE'))).toBe('SCHEDULED');
    expect(displayStatus(n('IMPORT_FILE', { status: '  ' }))).toBe('SCHEDULED');
  });
});

describe('FAILED with a message (spec 001 §4)', () => {
  it('gives the message to show in red, for any type and any case of FAILED', () => {
    expect(failureMessage(n('REPORT', { status: 'failed', message: 'Timed out' }))).toBe('Timed out');
    expect(
      failureMessage(n('PORTFOLIO_PROCESSING', { status: 'FAILED', message: 'Bad data', portfolioCode: 'P' })),
    ).toBe('Bad data');
  });
  it('gives nothing without a message or when not failed; the message then shows as a plain line', () => {
    expect(failureMessage(n('REPORT', { status: 'FAILED' }))).toBeNull();
    expect(failureMessage(n('REPORT', { status: 'DONE', message: 'All good' }))).toBeNull();
    expect(notificationDetails(n('REPORT', { status: 'DONE', message: 'All good' }))).toContain('All good');
    expect(notificationDetails(n('REPORT', { status: 'FAILED', message: 'Timed out' }))).not.toContain('Timed out');
  });
});

describe('details', () => {
  it("gives a report's period in the day format (dd/MM/yy), and text that is not a date as it was written", () => {
    expect(notificationDetails(n('REPORT', { startDate: '2026-03-01', endDate: '2026-03-31' }))).toContain(
      '01/03/26 – 31/03/26',
    );
    expect(notificationDetails(n('REPORT', { startDate: 'Q1 2026' }))).toContain('Q1 2026 –');
  });
});

describe('download link (spec 001 §4)', () => {
  it('shows when the status is Done or a link exists', () => {
    expect(showDownloadLink(n('REPORT', { status: 'Done' }))).toBe(true);
    expect(showDownloadLink(n('CONTRACT_NOTES', { downloadLink: '/files/reports/1/a.csv?expires=1&sig=x' }))).toBe(
      true,
    );
    expect(showDownloadLink(n('REPORT', { status: 'IN PROGRESS' }))).toBe(false);
    expect(showDownloadLink(n('REPORT', { status: 'FAILED' }))).toBe(false);
  });
});

describe('toasts (spec 001 §8)', () => {
  it("import file: '{file} imported successfully' or 'Failed to import {file}'", () => {
    expect(notificationToast(n('IMPORT_FILE', { fileName: 'holdings.csv', status: 'DONE' }))).toEqual({
      type: 'success',
      title: 'holdings.csv imported successfully',
    });
    expect(notificationToast(n('IMPORT_FILE', { fileName: 'holdings.csv', status: 'completed' }))?.title).toBe(
      'holdings.csv imported successfully',
    );
    expect(notificationToast(n('IMPORT_FILE', { fileName: 'holdings.csv', status: 'FAILED' }))).toMatchObject({
      type: 'error',
      title: 'Failed to import holdings.csv',
    });
    expect(notificationToast(n('IMPORT_FILE', { fileName: 'holdings.csv' }))).toBeNull();
  });
  it('report done or failed: info when the message mentions no data, otherwise error (spec 001 §8 as written)', () => {
    expect(
      notificationToast(n('REPORT', { status: 'FAILED', message: 'There is no data for this period' }))?.type,
    ).toBe('info');
    expect(notificationToast(n('REPORT', { status: 'DONE', message: 'No data found' }))?.type).toBe('info');
    expect(notificationToast(n('REPORT', { status: 'FAILED', message: 'Engine crashed' }))).toMatchObject({
      type: 'error',
      description: 'Engine crashed',
    });
    expect(notificationToast(n('REPORT', { status: 'DONE', fileName: 'cgt.pdf' }))).toMatchObject({
      type: 'error',
      title: 'Report ready',
      description: 'cgt.pdf',
    });
    expect(notificationToast(n('REPORT', { status: 'IN PROGRESS' }))).toBeNull();
  });
  it("registry download failure: 'Failed to download registry data'", () => {
    expect(notificationToast(n('HOLDER_DOWNLOAD_STATUS', { status: 'FAILED', message: 'x' }))).toMatchObject({
      type: 'error',
      title: 'Failed to download registry data',
    });
    expect(notificationToast(n('HOLDER_DOWNLOAD', { status: 'FAILED' }))).toMatchObject({
      type: 'error',
      title: 'Failed to download registry data',
    });
    expect(notificationToast(n('HOLDER_DOWNLOAD_STATUS', { status: 'DONE' }))).toBeNull();
  });
  it('portfolio processing completed or failed, and portfolio transfer', () => {
    expect(
      notificationToast(
        n('PORTFOLIO_PROCESSING', { status: 'COMPLETED', portfolioName: 'Main', portfolioCode: 'PF1' }),
      ),
    ).toEqual({
      type: 'success',
      title: 'Portfolio processing completed',
      description: 'Main (PF1)',
    });
    expect(
      notificationToast(n('PORTFOLIO_PROCESSING', { status: 'FAILED', message: 'Bad', portfolioCode: 'PF1' })),
    ).toMatchObject({ type: 'error', title: 'Portfolio processing failed' });
    expect(notificationToast(n('PORTFOLIO_PROCESSING', { status: 'IN PROGRESS', portfolioCode: 'PF1' }))).toBeNull();
    expect(notificationToast(n('PORTFOLIO_TRANSFER', { status: 'DONE' }))).toMatchObject({
      type: 'success',
      title: 'Portfolio transfer completed',
    });
    expect(notificationToast(n('PORTFOLIO_TRANSFER', { status: 'FAILED' }))).toMatchObject({
      type: 'error',
      title: 'Portfolio transfer failed',
    });
  });
  it('release notes and contract notes', () => {
    expect(notificationToast(n('RELEASE_NOTES', { summary: 'Version 2' }))).toEqual({
      type: 'info',
      title: 'Release notes',
      description: 'Version 2',
    });
    expect(notificationToast(n('CONTRACT_NOTES', { message: 'Processed 3' }))).toMatchObject({
      type: 'info',
      title: 'Contract notes',
    });
    expect(notificationToast(n('CONTRACT_NOTES', { status: 'FAILED' }))?.type).toBe('error');
  });
  it('silent and log types raise no toast', () => {
    expect(notificationToast(n('UNMAPPED_DOC_COUNT', { message: '3' }))).toBeNull();
    expect(notificationToast(n('PROCESS_LOG', { portfolioCode: 'P' }))).toBeNull();
  });
});

describe('process-log check (spec 001 §4)', () => {
  it('is triggered by processing completion or failure, with the portfolio code', () => {
    expect(processLogPortfolio(n('PORTFOLIO_PROCESSING', { status: 'COMPLETED', portfolioCode: 'PF-1' }))).toBe('PF-1');
    expect(processLogPortfolio(n('PORTFOLIO_PROCESSING', { status: 'failed', portfolioCode: 'PF-1' }))).toBe('PF-1');
    expect(processLogPortfolio(n('PORTFOLIO_PROCESSING', { status: 'IN PROGRESS', portfolioCode: 'PF-1' }))).toBeNull();
    expect(processLogPortfolio(n('PORTFOLIO_TRANSFER', { status: 'COMPLETED', portfolioCode: 'PF-1' }))).toBeNull();
    expect(processLogPortfolio(n('PORTFOLIO_PROCESSING', { status: 'COMPLETED', portfolioCode: '../x' }))).toBeNull();
  });
});

describe('report download name (spec 001 §7)', () => {
  it('is the sanitised file name', () => {
    expect(sanitiseFileName('../../etc/passwd')).toBe('passwd');
    expect(sanitiseFileName('CGT <report> 2026.csv')).toBe('CGT _report_ 2026.csv');
    expect(reportFileName('Q1: report?.pdf', undefined)).toBe('Q1_ report_.pdf');
  });
  it('else the name in the link (without the storage prefix), else Report_{timestamp}', () => {
    expect(reportFileName(undefined, '/files/reports/3/0123456789ab-summary.pdf?expires=1&sig=x')).toBe('summary.pdf');
    expect(reportFileName('', undefined, 1_700_000_000_000)).toBe('Report_1700000000000');
    expect(reportFileName('???', undefined, 42)).toBe('Report_42');
  });
});
