import ExcelJS from 'exceljs';

/** The example an import reads: the headers nome, numero, email and two rows. */
export async function exampleSpreadsheet(): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Contatos');
  sheet.columns = [
    { header: 'nome', key: 'nome', width: 24 },
    { header: 'numero', key: 'numero', width: 18 },
    { header: 'email', key: 'email', width: 28 },
  ];
  sheet.addRow({ nome: 'Maria Silva', numero: '5511987654321', email: 'maria@example.com' });
  sheet.addRow({ nome: 'João Souza', numero: '5521998765432', email: '' });
  return Buffer.from(await book.xlsx.writeBuffer());
}
