import type { Readable } from 'node:stream';
import { parseString } from '@fast-csv/parse';
import type ExcelJS from 'exceljs';
import { fileTypeFromBuffer } from 'file-type';
import yauzl from 'yauzl';
import { DomainError } from '../errors/domain-error.js';

/**
 * What an uploaded .xlsx may unpack to, read from the zip's central directory before anything is inflated:
 * 50 MB for one entry and for all of them together (a 10,000-row sheet of contacts unpacks to a few MB),
 * and at most 100 bytes unpacked per packed byte in an entry past 1 MB (spreadsheet XML packs 5 to 30:1;
 * a zip bomb packs 1000:1). Each entry is then inflated by yauzl, which stops one that unpacks past the
 * size it declared, so a lying directory gains nothing.
 */
export const SPREADSHEET_MAX_ENTRY_BYTES = 50 * 1024 * 1024;
export const SPREADSHEET_MAX_UNPACKED_BYTES = 50 * 1024 * 1024;
export const SPREADSHEET_MAX_RATIO = 100;
/** Entries smaller than this unpacked are not held to the ratio (a short run of repeated tags packs past 100:1 and costs nothing). */
const RATIO_FLOOR_BYTES = 1024 * 1024;

export interface SheetLimits {
  /** the most rows read after the first (the header); a sheet with a row past them is refused as soon as that row is seen */
  maxRows: number;
  maxEntryBytes?: number;
  maxUnpackedBytes?: number;
  maxRatio?: number;
}

export interface SheetLine {
  /** the row's number in the sheet (1 = the first) */
  row: number;
  /** the cells' texts, the first column at 0 (a missing cell is '') */
  cells: string[];
}

/** The refusal of a file: 400 ERR_VALIDATION on the `file` field, in the words of `reason`. */
export function spreadsheetRefused(reason: string, message: string): DomainError {
  return new DomainError('ERR_VALIDATION', { details: [{ field: 'file', messages: [reason] }] }, message);
}

const unreadable = () => spreadsheetRefused('not a spreadsheet', 'The file is not a spreadsheet (.xlsx or .csv).');
const tooLarge = () => spreadsheetRefused('too large when unpacked', 'The spreadsheet unpacks to more than this server reads.');
const tooManyRows = (max: number) => spreadsheetRefused(`at most ${max} rows`, `A spreadsheet of at most ${max} rows.`);

/**
 * The rows of an uploaded spreadsheet's first sheet, as texts: .xlsx (recognised by its bytes, not its
 * name) or CSV text (comma or semicolon, told by the first line). The one reader of every import
 * (contacts, contact lists): an .xlsx is refused (400) when its central directory says it unpacks past
 * the limits, before anything is inflated; only the workbook's parts naming its sheets, the shared
 * strings and the first sheet are inflated, streamed, and reading stops at the row cap.
 */
export async function readFirstSheet(buffer: Buffer | undefined, limits: SheetLimits): Promise<SheetLine[]> {
  if (!buffer?.length) throw spreadsheetRefused('Required', 'A spreadsheet is required.');
  const sniffed = await fileTypeFromBuffer(buffer);
  if (sniffed?.ext === 'xlsx') return readXlsx(buffer, limits);
  if (!sniffed && isText(buffer)) return readCsv(buffer, limits);
  throw unreadable();
}

// ---- CSV

async function readCsv(buffer: Buffer, limits: SheetLimits): Promise<SheetLine[]> {
  const text = buffer.toString('utf8').replace(/^\uFEFF/, '');
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  const delimiter = firstLine.split(';').length > firstLine.split(',').length ? ';' : ',';
  const lines: SheetLine[] = [];
  await new Promise<void>((resolve, reject) => {
    let row = 0;
    let done = false;
    const parser = parseString<string[], string[]>(text, {
      delimiter,
      ignoreEmpty: false,
      discardUnmappedColumns: false,
      strictColumnHandling: false,
    });
    const finish = (err?: unknown) => {
      if (done) return;
      done = true;
      if (err) reject(err);
      else resolve();
    };
    parser.on('data', (cells: string[]) => {
      if (done) return;
      row++;
      if (row > limits.maxRows + 1) {
        finish(tooManyRows(limits.maxRows));
        parser.destroy();
        return;
      }
      if (cells.some((c) => c !== '')) lines.push({ row, cells: cells.map((c) => c ?? '') });
    });
    parser.on('error', () => finish(unreadable()));
    parser.on('end', () => finish());
  });
  return lines;
}

/** UTF-8 text without control characters other than tabs and line ends. */
function isText(buffer: Buffer): boolean {
  const text = buffer.toString('utf8');
  if (text.includes('\uFFFD')) return false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) return false;
  }
  return true;
}

// ---- .xlsx

/** ExcelJS, loaded on the first spreadsheet read (most processes never handle one). */
let library: Promise<typeof ExcelJS> | undefined;
const loadExcelJS = () => (library ??= import('exceljs').then((m) => m.default));

/** The parts of ExcelJS's streaming reader fed here with entries yauzl inflates (its own zip parser reads local headers, unchecked). */
interface StreamingWorkbook {
  workbookRels?: Array<{ Id: string; Target: string }>;
  model?: { sheets?: Array<{ rId: string }> };
  _parseRels(entry: Readable): Promise<void>;
  _parseWorkbook(entry: Readable): Promise<void>;
  _parseSharedStrings(entry: Readable): AsyncGenerator<unknown>;
  _parseWorksheet(entry: AsyncIterable<unknown>, sheetNo: string): Generator<{ eventType: string; value: AsyncIterable<ExcelJS.Row> }>;
}

async function readXlsx(buffer: Buffer, limits: SheetLimits): Promise<SheetLine[]> {
  const zip = await openZip(buffer);
  try {
    const entries = await directory(zip, limits);
    const open = (name: string) => {
      const entry = entries.get(name);
      return entry ? openEntry(zip, entry) : undefined;
    };
    const { stream } = await loadExcelJS();
    const reader = new stream.xlsx.WorkbookReader(undefined as unknown as Readable, {
      worksheets: 'emit',
      sharedStrings: 'cache',
      hyperlinks: 'ignore',
      styles: 'ignore',
      entries: 'ignore',
    }) as unknown as StreamingWorkbook;
    const rels = await open('xl/_rels/workbook.xml.rels');
    const book = await open('xl/workbook.xml');
    if (!rels || !book) throw unreadable();
    await reader._parseRels(rels);
    await reader._parseWorkbook(book);
    const strings = await open('xl/sharedStrings.xml');
    if (strings) for await (const _ of reader._parseSharedStrings(strings)) void _;
    const sheetNo = firstSheet(reader, entries);
    if (!sheetNo) return [];
    const sheetStream = (await open(`xl/worksheets/sheet${sheetNo}.xml`)) as Readable;
    const lines: SheetLine[] = [];
    try {
      for (const { value: sheet } of reader._parseWorksheet(sheetStream, sheetNo)) {
        for await (const row of sheet) {
          if (row.number > limits.maxRows + 1) throw tooManyRows(limits.maxRows);
          const cells: string[] = [];
          row.eachCell({ includeEmpty: false }, (cell, col) => {
            cells[col - 1] = cellText(cell.value).trim();
          });
          for (let i = 0; i < cells.length; i++) cells[i] ??= '';
          if (cells.some((c) => c !== '')) lines.push({ row: row.number, cells });
        }
      }
    } finally {
      sheetStream.destroy();
    }
    return lines;
  } catch (err) {
    if (err instanceof DomainError) throw err;
    // yauzl stops an entry that inflates past the size the directory declared
    if (err instanceof Error && /too many bytes/i.test(err.message)) throw tooLarge();
    throw unreadable();
  } finally {
    zip.close();
  }
}

/**
 * What an upload is, told by its bytes, and for an .xlsx that its central directory stays within the limits (nothing is
 * inflated): the quick refusal a request gives before the rows are read in the background. `null`: neither.
 */
export async function spreadsheetKind(
  buffer: Buffer | undefined,
  limits: Omit<SheetLimits, 'maxRows'> = {},
): Promise<'xlsx' | 'csv' | null> {
  if (!buffer?.length) return null;
  const sniffed = await fileTypeFromBuffer(buffer);
  if (sniffed?.ext === 'xlsx') {
    const zip = await openZip(buffer);
    try {
      await directory(zip, { maxRows: 0, ...limits });
    } finally {
      zip.close();
    }
    return 'xlsx';
  }
  return !sniffed && isText(buffer) ? 'csv' : null;
}

/** The first sheet's file number: the workbook's first sheet through its relationships, else the lowest-numbered sheet file. */
function firstSheet(reader: StreamingWorkbook, entries: Map<string, yauzl.Entry>): string | undefined {
  const first = reader.model?.sheets?.[0];
  const target = first && reader.workbookRels?.find((r) => r.Id === first.rId)?.Target;
  const named = target?.replace(/^\/?(xl\/)?/, '').match(/^worksheets\/sheet(\d+)\.xml$/)?.[1];
  if (named && entries.has(`xl/worksheets/sheet${named}.xml`)) return named;
  const numbers = [...entries.keys()].map((n) => n.match(/^xl\/worksheets\/sheet(\d+)\.xml$/)?.[1]).filter((n): n is string => Boolean(n));
  return numbers.sort((a, b) => Number(a) - Number(b))[0];
}

function openZip(buffer: Buffer): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true, validateEntrySizes: true, decodeStrings: true }, (err, zip) =>
      err || !zip ? reject(unreadable()) : resolve(zip),
    );
  });
}

/** Every entry of the central directory, refused as a whole when one or all of them unpack past the limits. */
function directory(zip: yauzl.ZipFile, limits: SheetLimits): Promise<Map<string, yauzl.Entry>> {
  const maxEntry = limits.maxEntryBytes ?? SPREADSHEET_MAX_ENTRY_BYTES;
  const maxTotal = limits.maxUnpackedBytes ?? SPREADSHEET_MAX_UNPACKED_BYTES;
  const maxRatio = limits.maxRatio ?? SPREADSHEET_MAX_RATIO;
  return new Promise((resolve, reject) => {
    const entries = new Map<string, yauzl.Entry>();
    let total = 0;
    zip.on('entry', (entry: yauzl.Entry) => {
      total += entry.uncompressedSize;
      const ratio = entry.uncompressedSize / Math.max(1, entry.compressedSize);
      if (entry.uncompressedSize > maxEntry || total > maxTotal || (entry.uncompressedSize >= RATIO_FLOOR_BYTES && ratio > maxRatio)) {
        reject(tooLarge());
        return;
      }
      if (entry.isEncrypted()) {
        reject(unreadable());
        return;
      }
      entries.set(entry.fileName, entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve(entries));
    zip.on('error', () => reject(unreadable()));
    zip.readEntry();
  });
}

function openEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (err, stream) => (err || !stream ? reject(unreadable()) : resolve(stream)));
  });
}

function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') {
    if (value instanceof Date) return value.toISOString();
    if ('text' in value && typeof value.text === 'string') return value.text; // hyperlink (an email)
    if ('result' in value) return cellText(value.result as ExcelJS.CellValue); // formula
    if ('richText' in value) return value.richText.map((r) => r.text).join('');
    return '';
  }
  return String(value);
}
