import { Logger } from '@nestjs/common';
import { Response } from 'express';
import { writeCsv } from './csv';

const logger = new Logger('CsvExport');

/**
 * Streams a CSV download: headers first, then the rows batch by batch as the client reads them. An error
 * after the first byte cannot become an error response any more, so it cuts the download short instead
 * (the browser reports a failed download rather than a silently truncated file).
 */
export async function sendCsv(
  res: Response,
  name: string,
  header: readonly string[],
  rows: AsyncIterable<unknown[][]>,
): Promise<void> {
  const stamp = new Date().toISOString().slice(0, 10);
  res.status(200);
  res.setHeader('Content-Type', 'text/csv; charset=utf-8');
  res.setHeader('Content-Disposition', `attachment; filename="${name}-${stamp}.csv"`);
  res.setHeader('Cache-Control', 'no-store');
  try {
    await writeCsv(res, header, rows);
  } catch (e) {
    logger.error(`CSV export ${name} failed: ${(e as Error).message}`);
    res.destroy(e as Error);
  }
}

/** Turns batches of items into batches of CSV rows. */
export async function* mapBatches<T>(
  batches: AsyncIterable<T[]>,
  row: (item: T) => unknown[],
): AsyncGenerator<unknown[][]> {
  for await (const batch of batches) yield batch.map(row);
}
