import { createReadStream } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import type { Readable } from 'node:stream';
import { fileTypeFromFile } from 'file-type';
import multer from 'multer';
import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { finalize, type Observable } from 'rxjs';
import mime from 'mime-types';
import { DomainError } from '../errors/domain-error.js';
import { isMediaKey, mediaContentType, newMediaKey, safeMediaName, type MediaStorage } from './media-storage.js';

export type FileMediaType = 'image' | 'audio' | 'video' | 'application';

/** What multer hands over of a file it wrote to disk (`diskStorage`): nothing of it is held in memory. */
export interface UploadedDiskFile {
  path: string;
  originalname: string;
  mimetype: string;
  size: number;
}

/** The largest file of each type taken (bytes): WhatsApp's own limits for photos, audio and video; documents 100 MB. */
export const MEDIA_MAX_BYTES: Record<FileMediaType, number> = {
  image: 16 * 1024 * 1024,
  audio: 16 * 1024 * 1024,
  video: 16 * 1024 * 1024,
  application: 100 * 1024 * 1024,
};
export const MEDIA_UPLOAD_MAX_BYTES = Math.max(...Object.values(MEDIA_MAX_BYTES));

/** Documents with no signature to sniff, taken when their bytes are text. */
const TEXT_DOCUMENTS = new Set(['txt', 'csv', 'json', 'xml', 'vcf', 'ics', 'md', 'log']);

/** A file checked by its bytes: what it is, the type it is sent and served as, and the name it keeps. */
export interface CheckedMedia {
  mediaType: FileMediaType;
  mimetype: string;
  fileName: string;
  size: number;
}

const family = (m: string | false | null | undefined): string | null => {
  if (!m || m === 'application/octet-stream') return null;
  const top = m.split('/')[0];
  return top === 'image' || top === 'audio' || top === 'video' ? top : 'application';
};

/**
 * A file already stored (checked when it was uploaded: a queue's or an option's, say) described as a file to
 * send: its type by its name's extension, its name the key's last part, its size from the storage. Null when
 * the storage no longer has it.
 */
export async function storedMediaOf(storage: MediaStorage, key: string): Promise<(CheckedMedia & { key: string }) | null> {
  const found = await storage.head(key);
  if (!found) return null;
  const mimetype = mediaContentType(key);
  return {
    key,
    mimetype,
    mediaType: (family(mimetype) ?? 'application') as FileMediaType,
    fileName: key.split('/').pop() ?? 'file',
    size: found.size,
  };
}

function refuse(field: string, message: string): DomainError {
  return new DomainError('ERR_VALIDATION', { details: [{ field, messages: [message] }] }, message);
}

async function looksLikeText(path: string): Promise<boolean> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(8192);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    const head = buf.subarray(0, bytesRead);
    if (head.includes(0)) return false;
    // valid UTF-8 (a cut multi-byte character at the end is allowed)
    return !new TextDecoder('utf-8', { fatal: false }).decode(head).slice(0, -1).includes('\uFFFD');
  } finally {
    await fh.close();
  }
}

/**
 * Checks an uploaded file by its bytes (`file-type`), never by what the client says: the sniffed type
 * decides image, audio, video or document; a name or declared type of another family (a `.png` that is a
 * PDF, an `image/jpeg` that is an MP3) is refused, as is an unknown binary, an empty file or one over its
 * type's limit. The name kept has the extension of what the bytes are.
 */
export async function checkMediaFile(file: UploadedDiskFile, field = 'medias'): Promise<CheckedMedia> {
  if (!file.size) throw refuse(field, 'The file is empty.');
  const sniffed = await fileTypeFromFile(file.path);
  let mimetype: string;
  let ext: string;
  if (sniffed) {
    mimetype = sniffed.mime;
    ext = sniffed.ext;
  } else {
    const nameExt = (file.originalname.match(/\.([A-Za-z0-9]{1,8})$/)?.[1] ?? '').toLowerCase();
    if (!TEXT_DOCUMENTS.has(nameExt) || !(await looksLikeText(file.path))) throw refuse(field, 'This type of file is not accepted.');
    ext = nameExt;
    mimetype = mime.lookup(nameExt) || 'text/plain';
  }
  const mediaType = family(mimetype) as FileMediaType;
  const byName = family(mime.lookup(file.originalname));
  const declared = family(file.mimetype);
  if ((byName && byName !== mediaType) || (declared && declared !== mediaType)) {
    throw refuse(field, "The file's content does not match its name or type.");
  }
  if (file.size > MEDIA_MAX_BYTES[mediaType]) {
    throw new DomainError(
      'ERR_PAYLOAD_TOO_LARGE',
      { field, limit: MEDIA_MAX_BYTES[mediaType], mediaType },
      `The file is larger than ${MEDIA_MAX_BYTES[mediaType] / 1024 / 1024} MB.`,
    );
  }
  return { mediaType, mimetype, fileName: safeMediaName(file.originalname, ext), size: file.size };
}

/** Multer options of a media upload: files streamed to a temporary directory, at most `files` of them. */
export function mediaUploadOptions(files: number): {
  storage: multer.StorageEngine;
  defParamCharset: string;
  limits: NonNullable<multer.Options['limits']>;
} {
  // browsers send file names as UTF-8 without saying so
  return {
    storage: multer.diskStorage({ destination: tmpdir() }),
    defParamCharset: 'utf8',
    limits: { fileSize: MEDIA_UPLOAD_MAX_BYTES, files, fields: 20, fieldSize: 70_000 },
  };
}

/** The uploaded file as a stream. */
export function readUploaded(file: UploadedDiskFile): Readable {
  return createReadStream(file.path);
}

/** Removes multer's temporary files (whatever happened to the request). */
export async function discardUploads(files: readonly UploadedDiskFile[] | undefined): Promise<void> {
  await Promise.all((files ?? []).map((f) => rm(f.path, { force: true })));
}

/**
 * After a multipart request (answered, refused by validation or failed), its temporary files are removed:
 * list it after the FileInterceptor / FilesInterceptor that wrote them.
 */
@Injectable()
export class DiscardUploadsInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context
      .switchToHttp()
      .getRequest<{ file?: UploadedDiskFile; files?: UploadedDiskFile[] | Record<string, UploadedDiskFile[]> }>();
    const uploaded = (): UploadedDiskFile[] => {
      const files = req.files ? (Array.isArray(req.files) ? req.files : Object.values(req.files).flat()) : [];
      return [...files, ...(req.file ? [req.file] : [])].filter((f) => typeof f.path === 'string');
    };
    return next.handle().pipe(finalize(() => void discardUploads(uploaded())));
  }
}

/**
 * Removes files once what pointed at them is gone (after the commit: a rollback keeps them). Best effort:
 * a file that cannot be removed now is unreachable anyway (no message names it).
 */
export async function dropFiles(storage: MediaStorage, keys: string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += 20) {
    await Promise.all(keys.slice(i, i + 20).map((k) => storage.delete(k).catch(() => undefined)));
  }
}

/**
 * A file uploaded for a row (`POST …/media-upload`, multipart `file`): checked by its bytes (and by `accept`,
 * which answers a refusal text or null), stored, then saved on the row by `save`. The row's `previous` file is
 * dropped once the new one is saved; the new one is dropped when saving fails.
 */
export async function attachFile<T>(
  storage: MediaStorage,
  companyId: number,
  file: UploadedDiskFile | undefined,
  previous: string | null,
  save: (key: string, checked: CheckedMedia) => Promise<T>,
  accept: (checked: CheckedMedia) => string | null = () => null,
): Promise<T> {
  if (!file) throw fileRefused('Obrigatório');
  const checked = await checkMediaFile(file, 'file');
  const refusal = accept(checked);
  if (refusal) throw fileRefused(refusal);
  const key = newMediaKey(companyId, checked.fileName);
  await storage.put(key, readUploaded(file));
  let saved: T;
  try {
    saved = await save(key, checked);
  } catch (err) {
    await storage.delete(key).catch(() => undefined);
    throw err;
  }
  if (previous) await dropFiles(storage, [previous].filter(isMediaKey));
  return saved;
}

const fileRefused = (text: string) =>
  new DomainError('ERR_VALIDATION', { details: [{ field: 'file', messages: [text] }] }, `file: ${text}`);
