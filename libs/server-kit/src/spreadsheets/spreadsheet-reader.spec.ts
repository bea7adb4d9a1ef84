import { describe, expect, it } from '@jest/globals';
import ExcelJS from 'exceljs';
import { crc32, deflateRawSync } from 'node:zlib';
import { DomainError } from '../errors/domain-error.js';
import { readFirstSheet } from './spreadsheet-reader.js';

/** A zip of deflated entries; `declared` overrides the unpacked size written in both headers (a lying zip). */
function zip(entries: Array<{ name: string; data: Buffer; declared?: number }>): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const deflated = deflateRawSync(e.data);
    const size = e.declared ?? e.data.length;
    const crc = crc32(e.data) >>> 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt16LE(0x21, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(deflated.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(8, 10);
    header.writeUInt16LE(0x21, 14);
    header.writeUInt32LE(crc, 16);
    header.writeUInt32LE(deflated.length, 20);
    header.writeUInt32LE(size, 24);
    header.writeUInt16LE(name.length, 28);
    header.writeUInt32LE(offset, 42);
    central.push(header, name);
    parts.push(local, name, deflated);
    offset += local.length + name.length + deflated.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, directory, end]);
}

/** A minimal workbook whose shared strings are `strings` (so its size is the test's to choose). */
function workbook(strings: Buffer, declared?: number): Buffer {
  const ns = 'http://schemas.openxmlformats.org';
  return zip([
    {
      name: '[Content_Types].xml',
      data: Buffer.from(
        `<?xml version="1.0"?><Types xmlns="${ns}/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>`,
      ),
    },
    {
      name: '_rels/.rels',
      data: Buffer.from(
        `<?xml version="1.0"?><Relationships xmlns="${ns}/package/2006/relationships"><Relationship Id="rId1" Type="${ns}/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
      ),
    },
    {
      name: 'xl/workbook.xml',
      data: Buffer.from(
        `<?xml version="1.0"?><workbook xmlns="${ns}/spreadsheetml/2006/main" xmlns:r="${ns}/officeDocument/2006/relationships"><sheets><sheet name="A" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      ),
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: Buffer.from(
        `<?xml version="1.0"?><Relationships xmlns="${ns}/package/2006/relationships"><Relationship Id="rId1" Type="${ns}/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
      ),
    },
    {
      name: 'xl/worksheets/sheet1.xml',
      data: Buffer.from(
        `<?xml version="1.0"?><worksheet xmlns="${ns}/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c></row></sheetData></worksheet>`,
      ),
    },
    { name: 'xl/sharedStrings.xml', data: strings, declared },
  ]);
}

const sharedStrings = (bytes: number) => {
  const item = '<si><t>bomba</t></si>';
  return Buffer.from(
    `<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>Nome</t></si>${item.repeat(Math.ceil(bytes / item.length))}</sst>`,
  );
};

async function xlsx(sheets: Record<string, unknown[][]>): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) {
    const sheet = wb.addWorksheet(name);
    for (const r of rows) sheet.addRow(r);
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function refusal(work: Promise<unknown>): Promise<string> {
  const err = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DomainError);
  const e = err as DomainError;
  expect(e.code).toBe('ERR_VALIDATION');
  return (e.extra as { details: Array<{ field: string; messages: string[] }> }).details
    .map((d) => `${d.field}: ${d.messages.join(', ')}`)
    .join('; ');
}

describe('readFirstSheet', () => {
  it('reads the first sheet of an .xlsx as texts, row numbers kept, empty rows left out, other sheets not read', async () => {
    const file = await xlsx({
      Contatos: [
        ['Nome', 'Número', 'E-mail'],
        ['Ana', 5511987654321, { text: 'ana@example.com', hyperlink: 'mailto:ana@example.com' }],
        [],
        ['Bia', '5511955550000'],
      ],
      Outra: [['não lida']],
    });
    expect(await readFirstSheet(file, { maxRows: 10 })).toEqual([
      { row: 1, cells: ['Nome', 'Número', 'E-mail'] },
      { row: 2, cells: ['Ana', '5511987654321', 'ana@example.com'] },
      { row: 4, cells: ['Bia', '5511955550000'] },
    ]);
  });

  it('stops at the row cap (after the header), for .xlsx and CSV alike', async () => {
    const rows = (n: number) => [['Nome'], ...Array.from({ length: n }, (_, i) => [`Pessoa ${i}`])];
    expect(await readFirstSheet(await xlsx({ A: rows(10) }), { maxRows: 10 })).toHaveLength(11);
    expect(await refusal(readFirstSheet(await xlsx({ A: rows(11) }), { maxRows: 10 }))).toBe('file: at most 10 rows');
    const csv = (n: number) =>
      Buffer.from(
        rows(n)
          .map((r) => r.join(';'))
          .join('\n'),
      );
    expect(await readFirstSheet(csv(10), { maxRows: 10 })).toHaveLength(11);
    expect(await refusal(readFirstSheet(csv(11), { maxRows: 10 }))).toBe('file: at most 10 rows');
  });

  it('reads CSV with commas or semicolons and quoted fields', async () => {
    expect(await readFirstSheet(Buffer.from('\uFEFFnome,numero\n"Silva, Ana",5511987654321\n'), { maxRows: 10 })).toEqual([
      { row: 1, cells: ['nome', 'numero'] },
      { row: 2, cells: ['Silva, Ana', '5511987654321'] },
    ]);
    expect(await readFirstSheet(Buffer.from('nome;numero\r\nAna;55119\r\n'), { maxRows: 10 })).toEqual([
      { row: 1, cells: ['nome', 'numero'] },
      { row: 2, cells: ['Ana', '55119'] },
    ]);
  });

  it('refuses, from the central directory, an entry or a whole past the size limits or an entry packed past 100:1', async () => {
    // 2 MB of repeated shared strings pack far past 100:1
    expect(await refusal(readFirstSheet(workbook(sharedStrings(2 * 1024 * 1024)), { maxRows: 10 }))).toBe('file: too large when unpacked');
    // an honest 600 kB entry over a 512 kB limit, and a whole over its limit
    expect(await refusal(readFirstSheet(workbook(sharedStrings(600 * 1024)), { maxRows: 10, maxEntryBytes: 512 * 1024 }))).toBe(
      'file: too large when unpacked',
    );
    expect(await refusal(readFirstSheet(workbook(sharedStrings(600 * 1024)), { maxRows: 10, maxUnpackedBytes: 512 * 1024 }))).toBe(
      'file: too large when unpacked',
    );
    // within the limits it is read
    expect(await readFirstSheet(workbook(sharedStrings(600 * 1024)), { maxRows: 10 })).toEqual([{ row: 1, cells: ['Nome'] }]);
  });

  it('stops an entry that inflates past the size its directory declares (a lying zip)', async () => {
    expect(await refusal(readFirstSheet(workbook(sharedStrings(4 * 1024 * 1024), 1000), { maxRows: 10 }))).toBe(
      'file: too large when unpacked',
    );
  });

  it('refuses what is not a spreadsheet, whatever it is called', async () => {
    const png = Buffer.from(
      '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5f3c2e90000000049454e44ae426082',
      'hex',
    );
    for (const file of [
      png,
      Buffer.from([0, 1, 2, 3, 255, 254]),
      Buffer.from('504b030414000000', 'hex'),
      zip([{ name: 'a.txt', data: Buffer.from('oi') }]),
    ]) {
      expect(await refusal(readFirstSheet(file, { maxRows: 10 }))).toBe('file: not a spreadsheet');
    }
    expect(await refusal(readFirstSheet(undefined, { maxRows: 10 }))).toBe('file: Required');
  });
});
