/** A part of a CSV file: the header row and up to `size` data rows, and where its rows start in the file. */
export interface CsvBatch {
  csv: string;
  /** Data rows before this batch (the server numbers each batch's rows from 1). */
  offset: number;
  rows: number;
}

/**
 * Splits a CSV file into batches of at most `size` data rows, each with the file's header row, so that a large upload
 * goes to the server in parts and its progress can be shown. Line breaks inside quoted cells stay in their row; blank
 * lines are left out.
 */
export function csvBatches(text: string, size: number): { rows: number; batches: CsvBatch[] } {
  const lines: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    if (!quoted && (c === '\n' || c === '\r')) {
      if (c === '\r' && text[i + 1] === '\n') i++;
      if (current.trim() !== '') lines.push(current);
      current = '';
    } else current += c;
  }
  if (current.trim() !== '') lines.push(current);
  const [header, ...data] = lines;
  const batches: CsvBatch[] = [];
  for (let offset = 0; offset < data.length; offset += size) {
    const part = data.slice(offset, offset + size);
    batches.push({ csv: [header, ...part].join('\r\n'), offset, rows: part.length });
  }
  return { rows: data.length, batches };
}
