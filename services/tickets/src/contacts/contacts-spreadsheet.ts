import { Readable } from 'node:stream';
import type ExcelJS from 'exceljs';
import { fileTypeFromBuffer } from 'file-type';
import { DomainError } from '@wa/server-kit';

/** The largest spreadsheet taken (bytes) and the most rows read from it. */
export const CONTACTS_UPLOAD_MAX_BYTES = 5 * 1024 * 1024;
export const CONTACTS_UPLOAD_MAX_ROWS = 10_000;

/** What multer hands over of an uploaded file (memory storage). */
export interface UploadedBuffer {
  buffer: Buffer;
  originalname: string;
  mimetype: string;
  size: number;
}

export interface SheetRow {
  /** the row's number in the sheet (1 = the header) */
  row: number;
  name: string;
  number: string;
  email: string;
}

/** Header names (lower case, no accents) of each column, as people write them in pt, en and es. */
const HEADERS: Record<'name' | 'number' | 'email', string[]> = {
  name: ['name', 'nome', 'nombre', 'contato', 'contact'],
  number: ['number', 'numero', 'telefone', 'phone', 'celular', 'whatsapp', 'telefono'],
  email: ['email', 'e-mail', 'correo'],
};

const plain = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').trim().toLowerCase();

/** ExcelJS, loaded on the first spreadsheet read or written (most processes never handle one). */
let library: Promise<typeof ExcelJS> | undefined;
const loadExcelJS = () => (library ??= import('exceljs').then((m) => m.default));

function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') {
    if ('text' in value && typeof value.text === 'string') return value.text; // hyperlink (an email)
    if ('result' in value) return cellText(value.result as ExcelJS.CellValue); // formula
    if ('richText' in value) return value.richText.map((r) => r.text).join('');
    if (value instanceof Date) return value.toISOString();
    return '';
  }
  return String(value);
}

/**
 * The rows of an uploaded contacts spreadsheet: .xlsx (recognised by its bytes, not its name) or CSV
 * text (comma or semicolon). The first row names the columns (name/nome, number/numero/telefone,
 * email); without a recognised header, the columns are name, number, email. Anything else is refused.
 */
export async function readContactsSheet(file: Pick<UploadedBuffer, 'buffer'> | undefined): Promise<SheetRow[]> {
  if (!file?.buffer?.length) throw new DomainError('ERR_VALIDATION', { details: [{ field: 'file', messages: ['Required'] }] }, 'A spreadsheet is required.');
  const sniffed = await fileTypeFromBuffer(file.buffer);
  const workbook = new (await loadExcelJS()).Workbook();
  if (sniffed?.ext === 'xlsx') {
    try {
      await workbook.xlsx.load(file.buffer as unknown as ArrayBuffer);
    } catch {
      throw unreadable();
    }
  } else if (!sniffed && isText(file.buffer)) {
    const text = file.buffer.toString('utf8').replace(/^\uFEFF/, '');
    const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
    const delimiter = firstLine.split(';').length > firstLine.split(',').length ? ';' : ',';
    try {
      await workbook.csv.read(Readable.from([text]), { parserOptions: { delimiter } });
    } catch {
      throw unreadable();
    }
  } else {
    throw unreadable();
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) return [];
  const header = sheet.getRow(1);
  const columns = { name: 0, number: 0, email: 0 };
  header.eachCell((cell, col) => {
    const h = plain(cellText(cell.value));
    for (const key of Object.keys(HEADERS) as Array<keyof typeof HEADERS>) if (!columns[key] && HEADERS[key].includes(h)) columns[key] = col;
  });
  const hasHeader = columns.name > 0 || columns.number > 0;
  if (!hasHeader) Object.assign(columns, { name: 1, number: 2, email: 3 });
  const rows: SheetRow[] = [];
  const last = Math.min(sheet.rowCount, CONTACTS_UPLOAD_MAX_ROWS + 1);
  for (let r = hasHeader ? 2 : 1; r <= last; r++) {
    const row = sheet.getRow(r);
    const get = (col: number) => (col ? cellText(row.getCell(col).value).trim() : '');
    const item = { row: r, name: get(columns.name), number: get(columns.number), email: get(columns.email) };
    if (item.name || item.number || item.email) rows.push(item);
  }
  if (sheet.rowCount > CONTACTS_UPLOAD_MAX_ROWS + 1) {
    throw new DomainError('ERR_VALIDATION', { details: [{ field: 'file', messages: [`at most ${CONTACTS_UPLOAD_MAX_ROWS} rows`] }] }, `A spreadsheet of at most ${CONTACTS_UPLOAD_MAX_ROWS} rows.`);
  }
  return rows;
}

function unreadable(): DomainError {
  return new DomainError('ERR_VALIDATION', { details: [{ field: 'file', messages: ['not a spreadsheet'] }] }, 'The file is not a spreadsheet (.xlsx or .csv).');
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
