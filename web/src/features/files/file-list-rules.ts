import type { CreateFileListRequest, FileListDto, FileListOptionDto, FileListsPage, FilesChannelPayload } from '@wa/contracts';

/** spec 02 §5 "File list": the name has at least 3 characters ('nome muito curto'); the message is required. */
export const FILE_LIST_NAME_MIN = 3;

/** One option of the dialog: its name and the file it carries (saved on the server, or picked to upload). */
export interface FileOptionRow {
  /** stable key of the row in the form (a saved option's id, or a made-up one) */
  key: string;
  /** the saved option's id; null until the list is saved with it */
  id: number | null;
  name: string;
  /** where the saved file is read (`/media/...`), or null */
  stored: string | null;
  /** a file picked to upload after the list is saved, or null */
  file: File | null;
}

export interface FileListFormValues {
  name: string;
  message: string;
  options: FileOptionRow[];
}

/** Texts under `files.validation`: 'Obrigatório', 'nome muito curto'. */
export type FileListProblem = 'required' | 'tooShort';

export interface FileListErrors {
  name?: FileListProblem;
  message?: FileListProblem;
  /** by row key: an option with a file (or one already saved) needs a name */
  options?: Record<string, FileListProblem>;
}

/** What the dialog sends to `POST /files` and `PUT /files/{id}`: the options listed replace the saved ones (with an id: kept, with its file). */
export type FileListBody = CreateFileListRequest & Required<Pick<CreateFileListRequest, 'options'>>;

/** What `POST /files/uploadList/{id}` carries: a file for each option (by the option's id). */
export interface FileUpload {
  optionId: number;
  file: File;
}

let rowSeq = 0;

/** A new, empty option row. */
export function newOptionRow(): FileOptionRow {
  rowSeq += 1;
  return { key: `new-${rowSeq}`, id: null, name: '', stored: null, file: null };
}

function rowOf(o: FileListOptionDto): FileOptionRow {
  return { key: `saved-${o.id}`, id: o.id, name: o.name, stored: o.file, file: null };
}

export function fileListFormOf(list: FileListDto | null): FileListFormValues {
  return { name: list?.name ?? '', message: list?.message ?? '', options: (list?.options ?? []).map(rowOf) };
}

/** A new row nobody filled in (no name, no file): left out of what is sent. */
export const isBlankRow = (r: FileOptionRow): boolean => r.id === null && !r.name.trim() && !r.file;

/** The rows that are sent, in their order. */
export const keptRows = (rows: FileOptionRow[]): FileOptionRow[] => rows.filter((r) => !isBlankRow(r));

export function validateFileListForm(v: FileListFormValues): FileListErrors {
  const errors: FileListErrors = {};
  const name = v.name.trim();
  if (!name) errors.name = 'required';
  else if (name.length < FILE_LIST_NAME_MIN) errors.name = 'tooShort';
  if (!v.message.trim()) errors.message = 'required';
  const options: Record<string, FileListProblem> = {};
  for (const r of keptRows(v.options)) if (!r.name.trim()) options[r.key] = 'required';
  if (Object.keys(options).length > 0) errors.options = options;
  return errors;
}

export const hasFileListErrors = (e: FileListErrors): boolean => !!(e.name || e.message || e.options);

/** The body of a valid form: the trimmed names, the message as typed, the options kept in their order. */
export function fileListPayload(v: FileListFormValues): FileListBody {
  return {
    name: v.name.trim(),
    message: v.message,
    options: keptRows(v.options).map((r) => (r.id === null ? { name: r.name.trim() } : { id: r.id, name: r.name.trim() })),
  };
}

/**
 * The ids the saved list gave the rows sent: a kept option keeps its own; the new ones take, in order, the
 * returned options that are not kept ones (the server creates them in the order they were sent).
 * Undefined when the answer has no option for it.
 */
export function savedOptionIds(sent: FileOptionRow[], saved: FileListOptionDto[]): Array<number | undefined> {
  const kept = new Set(sent.filter((r) => r.id !== null).map((r) => r.id));
  const fresh = saved.filter((o) => !kept.has(o.id)).map((o) => o.id);
  let next = 0;
  return sent.map((r) => (r.id !== null ? r.id : fresh[next++]));
}

/**
 * The form once the list was saved: blank rows gone, every row with its id and saved file; files picked and not
 * uploaded yet stay with their rows (so a failed upload can be tried again with the same form).
 */
export function withSavedList(v: FileListFormValues, saved: FileListDto): FileListFormValues {
  const sent = keptRows(v.options);
  const ids = savedOptionIds(sent, saved.options);
  const byId = new Map(saved.options.map((o) => [o.id, o]));
  return {
    ...v,
    options: sent.map((r, i) => {
      const id = ids[i] ?? null;
      const o = id === null ? undefined : byId.get(id);
      return { ...r, id, name: o?.name ?? r.name, stored: o ? o.file : r.stored };
    }),
  };
}

/** The files to upload: one for each row with a picked file and an id. */
export function pendingUploads(rows: FileOptionRow[]): FileUpload[] {
  return rows.flatMap((r) => (r.file && r.id !== null ? [{ optionId: r.id, file: r.file }] : []));
}

/** The form once its files were uploaded: the rows show the saved files. */
export function withUploadedFiles(v: FileListFormValues, saved: FileListDto): FileListFormValues {
  const byId = new Map(saved.options.map((o) => [o.id, o]));
  return {
    ...v,
    options: v.options.map((r) => (r.id !== null && byId.has(r.id) ? { ...r, stored: byId.get(r.id)?.file ?? null, file: null } : r)),
  };
}

/** The type sent with a file: its MIME type, or a generic one (the server sniffs the file anyway). */
export const mediaTypeOf = (file: File): string => file.type || 'application/octet-stream';

/**
 * The multipart body of `POST /files/uploadList/{id}`: `typeArch=fileList`, `fileId`, then for each file, in
 * the same order, `id` (its option) and `mediaType`, then the `files` themselves.
 */
export function fileListUploadForm(fileListId: number, uploads: FileUpload[]): FormData {
  const form = new FormData();
  form.append('typeArch', 'fileList');
  form.append('fileId', String(fileListId));
  for (const u of uploads) form.append('id', String(u.optionId));
  for (const u of uploads) form.append('mediaType', mediaTypeOf(u.file));
  for (const u of uploads) form.append('files', u.file, u.file.name);
  return form;
}

/**
 * The server's checks by row: `options.<i>.name` (i among the rows sent) is shown under that row; `files`
 * (a refused upload) under the options.
 */
export function optionServerErrors(fieldErrors: Record<string, string>, sent: FileOptionRow[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [field, message] of Object.entries(fieldErrors)) {
    const m = /^options\.(\d+)(?:\.name)?$/.exec(field);
    const row = m ? sent[Number(m[1])] : undefined;
    if (row && message) out[row.key] = message;
  }
  return out;
}

/** The file name of a stored file's address (its last segment). */
export function storedFileName(url: string): string {
  const last = url.split('?')[0].split('/').pop() ?? '';
  try {
    return decodeURIComponent(last) || last;
  } catch {
    return last;
  }
}

// ---------- the cached list pages (live events and this tab's own saves)

/** The server's order (`GET /files`): by name. */
export function compareFileLists(a: Pick<FileListDto, 'id' | 'name'>, b: Pick<FileListDto, 'id' | 'name'>): number {
  return a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }) || a.id - b.id;
}

/** Whether a list belongs in the answer to a search (by name, any case). */
export const matchesFileListSearch = (name: string, search: string): boolean =>
  !search || name.toLowerCase().includes(search.toLowerCase());

export interface FileListPages {
  pages: FileListsPage[];
  pageParams: number[];
}

function withCount(pages: FileListsPage[], delta: number): FileListsPage[] {
  return delta === 0 ? pages : pages.map((p) => ({ ...p, count: Math.max(0, (p.count ?? 0) + delta) }));
}

export function removeFileListPages(data: FileListPages, fileListId: number): FileListPages {
  const found = data.pages.some((p) => (p.files ?? []).some((f) => f.id === fileListId));
  if (!found) return data;
  const pages = data.pages.map((p) => ({ ...p, files: (p.files ?? []).filter((f) => f.id !== fileListId) }));
  return { ...data, pages: withCount(pages, -1) };
}

/**
 * A saved list in the pages of a search: replaced in place while its name keeps its place; otherwise taken out
 * and put where its name sorts, when that place is among the loaded pages (past the last one, the next page
 * brings it); out of the pages when its name no longer matches the search.
 */
export function upsertFileListPages(data: FileListPages, fileList: FileListDto, search: string): FileListPages {
  const listed = data.pages.some((p) => (p.files ?? []).some((f) => f.id === fileList.id));
  if (!matchesFileListSearch(fileList.name, search)) return listed ? removeFileListPages(data, fileList.id) : data;
  const all = data.pages.flatMap((p) => p.files ?? []);
  const at = all.findIndex((f) => f.id === fileList.id);
  if (at >= 0) {
    const before = all[at - 1];
    const after = all[at + 1];
    const inPlace = (!before || compareFileLists(before, fileList) < 0) && (!after || compareFileLists(fileList, after) < 0);
    if (inPlace)
      return {
        ...data,
        pages: data.pages.map((p) => ({ ...p, files: (p.files ?? []).map((f) => (f.id === fileList.id ? fileList : f)) })),
      };
  }
  const pages = data.pages.map((p) => ({ ...p, files: (p.files ?? []).filter((f) => f.id !== fileList.id) }));
  const last = pages.length - 1;
  const target = pages.findIndex((p, i) => p.files.some((f) => compareFileLists(fileList, f) < 0) || (i === last && !p.hasMore));
  if (target < 0) return listed ? { ...data, pages: withCount(pages, -1) } : data;
  const files = [...pages[target].files, fileList].sort(compareFileLists);
  pages[target] = { ...pages[target], files };
  return { ...data, pages: withCount(pages, listed ? 0 : 1) };
}

/** What a `company-<id>-files` event does to the lists. */
export function fileListEventChange(p: FilesChannelPayload): { fileList: FileListDto } | { removed: number } {
  return p.action === 'delete' ? { removed: p.fileListId } : { fileList: p.fileList };
}
