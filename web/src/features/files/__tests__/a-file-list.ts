import type { FileListDto, FileListOptionDto } from '@wa/contracts';

/** An option as the server answers it; with a file when `stored` is given (its name in the company's folder). */
export function anOption(id: number, name: string, stored?: string): FileListOptionDto {
  return stored
    ? { id, name, path: `1/fileList/${stored}`, mediaType: 'application/pdf', file: `/media/1/fileList/${stored}` }
    : { id, name, path: null, mediaType: null, file: null };
}

/** A file list as the server answers it, for the tests. */
export function aFileList(id: number, name: string, extra: Partial<FileListDto> = {}): FileListDto {
  return {
    id,
    name,
    message: `Mensagem de ${name}`,
    userId: 1,
    options: [],
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
    ...extra,
  };
}
