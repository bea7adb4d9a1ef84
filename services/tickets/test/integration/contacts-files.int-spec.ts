import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { crc32, createDeflateRaw, deflateRawSync } from 'node:zlib';
import { parseString } from '@fast-csv/parse';
import { waitFor } from '@wa/testing';
import { randomNumber, startTickets, TestCompany, type TicketsUnderTest } from './harness.js';

let t: TicketsUnderTest;

beforeAll(async () => {
  t = await startTickets();
});

afterAll(async () => {
  await t?.close();
});

const upload = (token: string, blob: Blob, name: string) => {
  const form = new FormData();
  form.append('file', blob, name);
  return t.http.post('/contacts/upload', { token, form });
};

/** A zip of already-deflated entries, with honest sizes and CRCs in its local headers and central directory. */
function zip(entries: Array<{ name: string; deflated: Buffer; size: number; crc: number }>): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0, 6);
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt16LE(0, 10);
    local.writeUInt16LE(0x21, 12); // 1980-01-01
    local.writeUInt32LE(e.crc >>> 0, 14);
    local.writeUInt32LE(e.deflated.length, 18);
    local.writeUInt32LE(e.size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(0, 8);
    header.writeUInt16LE(8, 10);
    header.writeUInt16LE(0, 12);
    header.writeUInt16LE(0x21, 14);
    header.writeUInt32LE(e.crc >>> 0, 16);
    header.writeUInt32LE(e.deflated.length, 20);
    header.writeUInt32LE(e.size, 24);
    header.writeUInt16LE(name.length, 28);
    header.writeUInt32LE(offset, 42);
    central.push(header, name);
    parts.push(local, name, e.deflated);
    offset += local.length + name.length + e.deflated.length;
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

const small = (name: string, text: string) => {
  const data = Buffer.from(text);
  return { name, deflated: deflateRawSync(data), size: data.length, crc: crc32(data) };
};

/**
 * A 0.4 MB .xlsx whose sharedStrings.xml inflates to ~400 MB (deflated as it is made: the test never holds
 * it whole); its one sheet has a header and a contact, so a reader that inflates everything finds it valid.
 */
async function spreadsheetBomb(): Promise<Buffer> {
  const item = '<si><t>bomba bomba bomba bomba bomba bomba</t></si>';
  const chunk = Buffer.from(item.repeat(Math.floor((1024 * 1024) / item.length)));
  const head = Buffer.from(
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>Nome</t></si><si><t>Numero</t></si><si><t>Bomba</t></si>',
  );
  const tail = Buffer.from('</sst>');
  const deflate = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (b: Buffer) => out.push(b));
  const finished = new Promise((resolve) => deflate.on('end', resolve));
  let crc = 0;
  let size = 0;
  const write = async (b: Buffer) => {
    crc = crc32(b, crc);
    size += b.length;
    if (!deflate.write(b)) await new Promise((r) => deflate.once('drain', r));
  };
  await write(head);
  for (let i = 0; i < 400; i++) await write(chunk);
  await write(tail);
  deflate.end();
  await finished;
  const strings = { name: 'xl/sharedStrings.xml', deflated: Buffer.concat(out), size, crc };
  return zip([
    small(
      '[Content_Types].xml',
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>',
    ),
    small(
      '_rels/.rels',
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
    ),
    small(
      'xl/workbook.xml',
      '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Contatos" sheetId="1" r:id="rId1"/></sheets></workbook>',
    ),
    small(
      'xl/_rels/workbook.xml.rels',
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>',
    ),
    small(
      'xl/worksheets/sheet1.xml',
      '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row><row r="2"><c r="A2" t="s"><v>2</v></c><c r="B2"><v>5511955550009</v></c></row></sheetData></worksheet>',
    ),
    strings,
  ]);
}

describe('contacts spreadsheets cannot exhaust memory (issue 38 item 1)', () => {
  it('a 0.4 MB .xlsx that unpacks to 400 MB answers 400 ERR_VALIDATION, stores nothing, and tickets’ memory barely moves', async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const bomb = await spreadsheetBomb();
    expect(bomb.length).toBeLessThan(5 * 1024 * 1024); // under the upload cap: the cap on the packed file does not stop it
    global.gc?.();
    const before = process.memoryUsage();
    let peakRss = before.rss;
    let peakHeap = before.heapUsed + before.arrayBuffers;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peakRss = Math.max(peakRss, m.rss);
      peakHeap = Math.max(peakHeap, m.heapUsed + m.arrayBuffers);
    }, 5);
    const started = Date.now();
    const res = await upload(admin.token, new Blob([bomb]), 'contatos.xlsx');
    clearInterval(sampler);
    const grew = {
      rssMB: Math.round((peakRss - before.rss) / 1048576),
      heapMB: Math.round((peakHeap - before.heapUsed - before.arrayBuffers) / 1048576),
    };
    expect({ status: res.status, error: res.body.error, details: res.body.details }).toEqual({
      status: 400,
      error: 'ERR_VALIDATION',
      details: [{ field: 'file', messages: ['too large when unpacked'] }],
    });
    // the same process runs tickets and this test: its memory is tickets' memory (~1 GB more without the reader's limits)
    expect(grew.rssMB).toBeLessThan(100);
    expect(grew.heapMB).toBeLessThan(100);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await t.http.get('/contacts', { token: admin.token })).body.count).toBe(0);
  });
});

describe('contacts exports cannot carry formulas (issue 38 item 7)', () => {
  it('a name from a WhatsApp profile or typed that a spreadsheet would run comes back as text; numbers stay plain digits', async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const conn = await c.connection();
    // a customer whose WhatsApp profile name is a formula writes in: the contact takes that name
    const customer = randomNumber();
    await c.inbound(conn.id, customer, 'oi', { name: '=HYPERLINK("http://x","y")' });
    await waitFor(async () => (await t.http.get('/contacts', { token: admin.token })).body.count === 1 || undefined);
    const typed = [
      ['+5511987650000', randomNumber(), ''],
      ['@SUM(1)', randomNumber(), ''],
      ['-2+3', randomNumber(), '=1+1@example.com'],
      ['Maria Souza', randomNumber(), 'maria@example.com'],
    ];
    for (const [name, number, email] of typed) {
      const res = await t.http.post('/contacts', { token: admin.token, body: { name, number, ...(email ? { email } : {}) } });
      expect(res.status).toBe(200);
    }
    const csv = await t.http.get('/contacts/export', { token: admin.token });
    expect(csv.status).toBe(200);
    const rows = await new Promise<string[][]>((resolve, reject) => {
      const out: string[][] = [];
      parseString(String(csv.body).replace(/^\uFEFF/, ''), { delimiter: ';' })
        .on('data', (r: string[]) => out.push(r))
        .on('error', reject)
        .on('end', () => resolve(out));
    });
    expect(rows[0]).toEqual(['name', 'number', 'email']);
    expect(rows.slice(1).sort((a, b) => a[0].localeCompare(b[0]))).toEqual(
      [
        ['\'=HYPERLINK("http://x","y")', customer, ''],
        ["'+5511987650000", typed[0][1], ''],
        ["'@SUM(1)", typed[1][1], ''],
        ["'-2+3", typed[2][1], "'=1+1@example.com"],
        ['Maria Souza', typed[3][1], 'maria@example.com'],
      ].sort((a, b) => a[0].localeCompare(b[0])),
    );
    // the number column is the stored digits, never quoted: a spreadsheet reads it as a number
    for (const r of rows.slice(1)) expect(r[1]).toMatch(/^\d+$/);
  });
});
