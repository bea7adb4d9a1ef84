import { describe, expect, it } from '@jest/globals';
import {
  fileListFormOf,
  fileListPayload,
  fileListUploadForm,
  hasFileListErrors,
  newOptionRow,
  optionServerErrors,
  pendingUploads,
  removeFileListPages,
  savedOptionIds,
  storedFileName,
  upsertFileListPages,
  validateFileListForm,
  withSavedList,
  withUploadedFiles,
  type FileListFormValues,
  type FileListPages,
  type FileOptionRow,
} from '../file-list-rules';
import { aFileList, anOption } from './a-file-list';

const row = (over: Partial<FileOptionRow>): FileOptionRow => ({ ...newOptionRow(), ...over });
const form = (over: Partial<FileListFormValues> = {}): FileListFormValues => ({
  name: 'Catálogos',
  message: 'Segue o catálogo',
  options: [],
  ...over,
});
const aFile = (name: string, type = 'application/pdf') => new File(['%PDF-1.4'], name, { type });

describe('file list rules (spec 02 §5 "File list")', () => {
  it('the name is required and has at least 3 characters (spaces around it do not count)', () => {
    const v = (name: string) => validateFileListForm(form({ name })).name;
    expect(v('')).toBe('required');
    expect(v('   ')).toBe('required');
    expect(v('ab')).toBe('tooShort');
    expect(v(' ab ')).toBe('tooShort');
    expect(v('abc')).toBeUndefined();
  });

  it('the message is required', () => {
    expect(validateFileListForm(form({ message: '' })).message).toBe('required');
    expect(validateFileListForm(form({ message: ' \n ' })).message).toBe('required');
    expect(validateFileListForm(form({ message: 'Olá' })).message).toBeUndefined();
    expect(hasFileListErrors(validateFileListForm(form()))).toBe(false);
  });

  it('an option with a file or already saved needs a name; a new empty row is left out', () => {
    const blank = row({});
    const withFile = row({ file: aFile('a.pdf') });
    const saved = row({ id: 4, name: '  ' });
    const errors = validateFileListForm(form({ options: [blank, withFile, saved] }));
    expect(errors.options).toEqual({ [withFile.key]: 'required', [saved.key]: 'required' });
    expect(hasFileListErrors(errors)).toBe(true);
    expect(validateFileListForm(form({ options: [blank] })).options).toBeUndefined();
  });

  it('the body: trimmed names, the message as typed, the options in order (an id for saved ones), blank rows left out', () => {
    const v = form({
      name: '  Catálogos ',
      message: 'Segue o catálogo\n',
      options: [row({ id: 7, name: ' Tabela ' }), row({}), row({ name: 'Fotos', file: aFile('f.png', 'image/png') })],
    });
    expect(fileListPayload(v)).toEqual({
      name: 'Catálogos',
      message: 'Segue o catálogo\n',
      options: [{ id: 7, name: 'Tabela' }, { name: 'Fotos' }],
    });
  });

  it('an edit starts with the saved list, each option with its saved file', () => {
    const v = fileListFormOf(
      aFileList(3, 'Catálogos', { message: 'Oi', options: [anOption(7, 'Tabela', 'tabela.pdf'), anOption(8, 'Fotos')] }),
    );
    expect(v.name).toBe('Catálogos');
    expect(v.message).toBe('Oi');
    expect(v.options.map((r) => [r.id, r.name, r.stored, r.file])).toEqual([
      [7, 'Tabela', '/media/1/fileList/tabela.pdf', null],
      [8, 'Fotos', null, null],
    ]);
    expect(fileListFormOf(null)).toEqual({ name: '', message: '', options: [] });
  });

  it('new options take the returned ids by position; kept ones keep theirs, whatever the answer’s order', () => {
    const sent = [row({ name: 'A' }), row({ id: 7, name: 'B' }), row({ name: 'C' })];
    expect(savedOptionIds(sent, [anOption(20, 'A'), anOption(7, 'B'), anOption(21, 'C')])).toEqual([20, 7, 21]);
    expect(savedOptionIds(sent, [anOption(7, 'B'), anOption(20, 'A'), anOption(21, 'C')])).toEqual([20, 7, 21]);
    expect(savedOptionIds(sent, [anOption(7, 'B')])).toEqual([undefined, 7, undefined]);
  });

  it('after a save the rows carry their ids and keep the files still to upload; those are the uploads', () => {
    const pdf = aFile('tabela.pdf');
    const png = aFile('foto.png', 'image/png');
    const v = form({
      options: [row({ name: 'Tabela', file: pdf }), row({}), row({ id: 7, name: 'Antigo' }), row({ name: 'Foto', file: png })],
    });
    const saved = withSavedList(
      v,
      aFileList(3, 'Catálogos', { options: [anOption(20, 'Tabela'), anOption(7, 'Antigo', 'antigo.pdf'), anOption(21, 'Foto')] }),
    );
    expect(saved.options.map((r) => [r.id, r.name, r.stored])).toEqual([
      [20, 'Tabela', null],
      [7, 'Antigo', '/media/1/fileList/antigo.pdf'],
      [21, 'Foto', null],
    ]);
    const uploads = pendingUploads(saved.options);
    expect(uploads.map((u) => [u.optionId, u.file.name])).toEqual([
      [20, 'tabela.pdf'],
      [21, 'foto.png'],
    ]);
    // the upload's answer: the rows show the files as saved, nothing left to send
    const done = withUploadedFiles(
      saved,
      aFileList(3, 'Catálogos', {
        options: [anOption(20, 'Tabela', 'tabela.pdf'), anOption(7, 'Antigo', 'antigo.pdf'), anOption(21, 'Foto', 'foto.png')],
      }),
    );
    expect(done.options.map((r) => [r.stored, r.file])).toEqual([
      ['/media/1/fileList/tabela.pdf', null],
      ['/media/1/fileList/antigo.pdf', null],
      ['/media/1/fileList/foto.png', null],
    ]);
    expect(pendingUploads(done.options)).toEqual([]);
  });

  it('the upload form: typeArch, fileId, then id and mediaType once per file, in the order of the files', () => {
    const pdf = aFile('tabela.pdf');
    const png = aFile('foto.png', 'image/png');
    const odd = new File(['x'], 'sem-tipo', { type: '' });
    const body = fileListUploadForm(3, [
      { optionId: 20, file: pdf },
      { optionId: 21, file: png },
      { optionId: 9, file: odd },
    ]);
    expect(body.get('typeArch')).toBe('fileList');
    expect(body.get('fileId')).toBe('3');
    expect(body.getAll('id')).toEqual(['20', '21', '9']);
    expect(body.getAll('mediaType')).toEqual(['application/pdf', 'image/png', 'application/octet-stream']);
    expect(body.getAll('files').map((f) => (f as File).name)).toEqual(['tabela.pdf', 'foto.png', 'sem-tipo']);
  });

  it("the server's checks of an option are shown under that row", () => {
    const sent = [row({ name: 'A' }), row({ name: 'B' })];
    expect(optionServerErrors({ name: 'x', 'options.1.name': 'Nome repetido', 'options.5.name': 'y' }, sent)).toEqual({
      [sent[1].key]: 'Nome repetido',
    });
  });

  it('the name of a stored file is the last part of its address', () => {
    expect(storedFileName('/media/1/fileList/tabela%20de%20pre%C3%A7os.pdf')).toBe('tabela de preços.pdf');
    expect(storedFileName('/media/1/fileList/a.png?x=1')).toBe('a.png');
  });
});

describe('cached pages of file lists (live events and saves)', () => {
  const pages = (...lists: Array<{ files: ReturnType<typeof aFileList>[]; hasMore: boolean }>): FileListPages => ({
    pages: lists.map((l) => ({ ...l, count: 5 })),
    pageParams: lists.map((_l, i) => i + 1),
  });
  const names = (d: FileListPages) => d.pages.map((p) => p.files.map((f) => f.name));

  it('a new list goes where its name sorts, and the count grows', () => {
    const d = pages({ files: [aFileList(1, 'Alfa'), aFileList(2, 'Gama')], hasMore: false });
    const out = upsertFileListPages(d, aFileList(3, 'beta'), '');
    expect(names(out)).toEqual([['Alfa', 'beta', 'Gama']]);
    expect(out.pages[0].count).toBe(6);
  });

  it('past the loaded pages a new list waits for its page; a search it does not match leaves it out', () => {
    const d = pages({ files: [aFileList(1, 'Alfa'), aFileList(2, 'Gama')], hasMore: true });
    expect(upsertFileListPages(d, aFileList(3, 'Zeta'), '')).toBe(d);
    expect(names(upsertFileListPages(d, aFileList(3, 'Zeta'), ''))).toEqual([['Alfa', 'Gama']]);
    expect(upsertFileListPages(d, aFileList(3, 'Beta'), 'gam')).toBe(d);
    expect(names(upsertFileListPages(d, aFileList(3, 'Bigamo'), 'gam'))).toEqual([['Alfa', 'Bigamo', 'Gama']]);
  });

  it('a changed list is replaced in place, moved when renamed, dropped when it leaves the search', () => {
    const d = pages({ files: [aFileList(1, 'Alfa'), aFileList(2, 'Beta'), aFileList(3, 'Gama')], hasMore: false });
    const edited = upsertFileListPages(d, aFileList(2, 'Beta', { message: 'nova' }), '');
    expect(edited.pages[0].files[1].message).toBe('nova');
    expect(edited.pages[0].count).toBe(5);
    expect(names(upsertFileListPages(d, aFileList(1, 'Zulu'), ''))).toEqual([['Beta', 'Gama', 'Zulu']]);
    const searched = upsertFileListPages(d, aFileList(2, 'Delta'), 'bet');
    expect(names(searched)).toEqual([['Alfa', 'Gama']]);
    expect(searched.pages[0].count).toBe(4);
  });

  it('a deleted list leaves its page and the count drops; an unknown one changes nothing', () => {
    const d = pages({ files: [aFileList(1, 'Alfa')], hasMore: true }, { files: [aFileList(2, 'Beta')], hasMore: false });
    const out = removeFileListPages(d, 2);
    expect(names(out)).toEqual([['Alfa'], []]);
    expect(out.pages[0].count).toBe(4);
    expect(removeFileListPages(d, 99)).toBe(d);
  });
});
