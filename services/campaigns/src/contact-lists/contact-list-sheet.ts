import { readFirstSheet, spreadsheetRefused, type SheetLine } from '@wa/server-kit';
import { fileTypeFromBuffer } from 'file-type';

/** The largest spreadsheet taken (bytes) and the most rows read from it after the header. */
export const LIST_UPLOAD_MAX_BYTES = 25 * 1024 * 1024;
export const LIST_UPLOAD_MAX_ROWS = 100_000;

/** What multer hands over of an uploaded file (memory storage). */
export interface UploadedBuffer {
  buffer: Buffer;
  originalname: string;
  mimetype: string;
  size: number;
}

export interface ListSheetRow {
  name: string;
  number: string;
  email: string;
}

/** Header names (lower case, no accents) of each column. */
const HEADERS: Record<keyof ListSheetRow, string[]> = {
  name: ['nome', 'name', 'nombre', 'contato', 'contact'],
  number: ['numero', 'number', 'telefone', 'phone', 'celular', 'whatsapp', 'telefono'],
  email: ['email', 'e-mail', 'correo'],
};

const plain = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .trim()
    .toLowerCase();

const tooManyRows = () =>
  spreadsheetRefused(`at most ${LIST_UPLOAD_MAX_ROWS} rows`, `A spreadsheet of at most ${LIST_UPLOAD_MAX_ROWS} rows.`);
const notASheet = () => spreadsheetRefused('not a spreadsheet', 'The file is not a spreadsheet (.xlsx, .xls or .csv).');

/**
 * The rows of an uploaded contact list, its type told by its bytes: .xlsx and CSV through server-kit's bounded
 * reader (a zip bomb is refused before anything is inflated), a legacy .xls (an OLE compound file) through
 * @e965/xlsx; anything else is refused (400). The first row names the columns (nome/name, numero/número/number,
 * email, in any case and accents); a file without a number column is refused.
 */
export async function readListSheet(file: Pick<UploadedBuffer, 'buffer'> | undefined): Promise<ListSheetRow[]> {
  const buffer = file?.buffer;
  if (!buffer?.length) throw spreadsheetRefused('Required', 'A spreadsheet is required.');
  const sniffed = await fileTypeFromBuffer(buffer);
  const lines = sniffed?.ext === 'cfb' ? await readXls(buffer) : await readFirstSheet(buffer, { maxRows: LIST_UPLOAD_MAX_ROWS });
  const header = lines[0]?.cells ?? [];
  const columns: Record<keyof ListSheetRow, number> = { name: -1, number: -1, email: -1 };
  header.forEach((cell, i) => {
    const h = plain(cell);
    for (const key of Object.keys(HEADERS) as Array<keyof ListSheetRow>) if (columns[key] < 0 && HEADERS[key].includes(h)) columns[key] = i;
  });
  if (columns.number < 0)
    throw spreadsheetRefused('no number column', 'The first row names the columns: nome, numero and email (numero is required).');
  const rows: ListSheetRow[] = [];
  const read = lines as Array<SheetLine | undefined>;
  for (let i = 1; i < read.length; i++) {
    const cells = read[i]?.cells ?? [];
    // each line let go once copied: a 100,000-row sheet is not held twice
    read[i] = undefined;
    const get = (col: number) => (col >= 0 ? String(cells[col] ?? '').trim() : '');
    rows.push({ name: get(columns.name), number: get(columns.number), email: get(columns.email) });
  }
  return rows;
}

/** @e965/xlsx, loaded on the first .xls (npm's `xlsx` 0.18.5 has open CVEs; this is SheetJS' maintained build). */
let sheetjs: Promise<typeof import('@e965/xlsx')> | undefined;

/** A legacy .xls's first sheet, read up to one row past the cap. */
async function readXls(buffer: Buffer): Promise<SheetLine[]> {
  const XLSX = await (sheetjs ??= import('@e965/xlsx'));
  let rows: unknown[][];
  try {
    const book = XLSX.read(buffer, { type: 'buffer', sheetRows: LIST_UPLOAD_MAX_ROWS + 2, cellFormula: false, cellHTML: false });
    const first = book.SheetNames[0];
    const sheet = first ? book.Sheets[first] : undefined;
    if (!sheet) throw notASheet();
    rows = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: false, defval: '', blankrows: false });
  } catch {
    throw notASheet();
  }
  if (rows.length > LIST_UPLOAD_MAX_ROWS + 1) throw tooManyRows();
  const lines: SheetLine[] = [];
  rows.forEach((cells, i) => {
    const texts = cells.map((c) => String(c ?? '').trim());
    if (texts.some((t) => t !== '')) lines.push({ row: i + 1, cells: texts });
  });
  return lines;
}
