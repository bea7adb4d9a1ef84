import { readFirstSheet } from '@wa/server-kit';

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

const plain = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .trim()
    .toLowerCase();

/**
 * The rows of an uploaded contacts spreadsheet, read by the one spreadsheet reader (server-kit: .xlsx or
 * CSV, its unpacked size bounded before anything is inflated, the first sheet only, stopped at the row cap).
 * The first row names the columns (name/nome, number/numero/telefone, email); without a recognised
 * header, the columns are name, number, email.
 */
export async function readContactsSheet(file: Pick<UploadedBuffer, 'buffer'> | undefined): Promise<SheetRow[]> {
  const lines = await readFirstSheet(file?.buffer, { maxRows: CONTACTS_UPLOAD_MAX_ROWS });
  const columns = { name: 0, number: 0, email: 0 };
  const header = lines[0]?.row === 1 ? lines[0].cells : [];
  header.forEach((cell, i) => {
    const h = plain(cell);
    for (const key of Object.keys(HEADERS) as Array<keyof typeof HEADERS>)
      if (!columns[key] && HEADERS[key].includes(h)) columns[key] = i + 1;
  });
  const hasHeader = columns.name > 0 || columns.number > 0;
  if (!hasHeader) Object.assign(columns, { name: 1, number: 2, email: 3 });
  const rows: SheetRow[] = [];
  for (const line of hasHeader ? lines.slice(1) : lines) {
    const get = (col: number) => (col ? (line.cells[col - 1] ?? '').trim() : '');
    const item = { row: line.row, name: get(columns.name), number: get(columns.number), email: get(columns.email) };
    if (item.name || item.number || item.email) rows.push(item);
  }
  return rows;
}
