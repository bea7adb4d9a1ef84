import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { PassThrough, type Readable } from 'node:stream';
import { isMediaKey, LocalDiskStorage, mediaContentType, MediaStorage, type StoredMedia } from './media-storage.js';

export interface S3StorageOptions {
  bucket: string;
  /** keys live under this prefix in the bucket (`media/` by default) */
  prefix?: string;
  client: S3ClientConfig;
}

const notFound = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
};

/**
 * Media files in an S3-compatible bucket (AWS S3, MinIO, Ceph, R2…): streamed up in parts
 * (`@aws-sdk/lib-storage`: a file of unknown length never sits whole in memory) and down as the
 * object's body stream. The same keys as on disk, under a prefix.
 */
export class S3Storage extends MediaStorage {
  private readonly s3: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;

  constructor(opts: S3StorageOptions) {
    super();
    this.s3 = new S3Client(opts.client);
    this.bucket = opts.bucket;
    this.prefix = opts.prefix ?? 'media/';
  }

  async put(key: string, body: Readable): Promise<{ size: number }> {
    let size = 0;
    const counted = new PassThrough();
    counted.on('data', (chunk: Buffer) => (size += chunk.length));
    const objectKey = this.objectKey(key);
    body.on('error', (err) => counted.destroy(err));
    body.pipe(counted);
    try {
      await new Upload({
        client: this.s3,
        params: { Bucket: this.bucket, Key: objectKey, Body: counted, ContentType: mediaContentType(key) },
      }).done();
    } catch (err) {
      // the source (a file, a download) is closed, not left open
      body.destroy();
      counted.destroy();
      throw err;
    }
    return { size };
  }

  async get(key: string): Promise<StoredMedia | null> {
    try {
      const res = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      return { stream: res.Body as Readable, size: Number(res.ContentLength ?? 0), contentType: mediaContentType(key) };
    } catch (err) {
      if (notFound(err)) return null;
      throw err;
    }
  }

  async head(key: string): Promise<{ size: number } | null> {
    try {
      const res = await this.s3.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      return { size: Number(res.ContentLength ?? 0) };
    } catch (err) {
      if (notFound(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await this.s3.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
  }

  /** Lists the company's objects a page (1,000) at a time and deletes each page in one call. */
  async deleteCompany(companyId: number): Promise<void> {
    if (!Number.isSafeInteger(companyId) || companyId <= 0) throw new Error(`not a company id: ${companyId}`);
    let token: string | undefined;
    do {
      const page = await this.s3.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: `${this.prefix}${companyId}/`, ContinuationToken: token }),
      );
      const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
      if (keys.length > 0) await this.s3.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: keys, Quiet: true } }));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  private objectKey(key: string): string {
    if (!isMediaKey(key)) throw new Error(`not a media key: ${key}`);
    return `${this.prefix}${key}`;
  }
}

/** The media storage the service's settings name: MEDIA_STORAGE=local (MEDIA_DIR) or s3 (MEDIA_S3_*). */
export function mediaStorageFrom(env: {
  MEDIA_STORAGE: 'local' | 's3';
  MEDIA_DIR: string;
  MEDIA_S3_BUCKET?: string;
  MEDIA_S3_REGION: string;
  MEDIA_S3_ENDPOINT?: string;
  MEDIA_S3_FORCE_PATH_STYLE: string;
  MEDIA_S3_ACCESS_KEY_ID?: string;
  MEDIA_S3_SECRET_ACCESS_KEY?: string;
}): MediaStorage {
  if (env.MEDIA_STORAGE !== 's3') return new LocalDiskStorage(env.MEDIA_DIR);
  return new S3Storage({
    bucket: env.MEDIA_S3_BUCKET as string,
    client: {
      region: env.MEDIA_S3_REGION,
      endpoint: env.MEDIA_S3_ENDPOINT || undefined,
      forcePathStyle: env.MEDIA_S3_FORCE_PATH_STYLE === 'true',
      credentials: env.MEDIA_S3_ACCESS_KEY_ID
        ? { accessKeyId: env.MEDIA_S3_ACCESS_KEY_ID, secretAccessKey: env.MEDIA_S3_SECRET_ACCESS_KEY ?? '' }
        : undefined,
    },
  });
}
