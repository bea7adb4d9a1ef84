import type { S3Client, S3ClientConfig } from '@aws-sdk/client-s3';
import { PassThrough, type Readable } from 'node:stream';
import { isMediaKey, LocalDiskStorage, mediaContentType, MediaStorage, type StoredMedia } from './media-storage.js';

interface S3Sdk {
  s3: typeof import('@aws-sdk/client-s3');
  upload: typeof import('@aws-sdk/lib-storage');
}

let loading: Promise<S3Sdk> | undefined;

/**
 * The AWS SDK, loaded when a bucket is first used: every service imports server-kit, and most never store media in
 * S3 (MEDIA_STORAGE=local, or a service without media). Loaded up front, it cost each of them ~3 MB of the heap every
 * major collection marks (4.7 MB measured alone), ~20 MB of memory and ~0.12 s of start (issue 44).
 */
function loadSdk(): Promise<S3Sdk> {
  loading ??= Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/lib-storage')]).then(([s3, upload]) => ({ s3, upload }));
  return loading;
}

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
  private readonly config: S3ClientConfig;
  private client: Promise<{ sdk: S3Sdk; s3: S3Client }> | undefined;
  private readonly bucket: string;
  private readonly prefix: string;

  constructor(opts: S3StorageOptions) {
    super();
    this.config = opts.client;
    this.bucket = opts.bucket;
    this.prefix = opts.prefix ?? 'media/';
  }

  /** The SDK and this bucket's client, made on first use (see loadSdk). */
  private connect(): Promise<{ sdk: S3Sdk; s3: S3Client }> {
    this.client ??= loadSdk().then((sdk) => ({ sdk, s3: new sdk.s3.S3Client(this.config) }));
    return this.client;
  }

  async put(key: string, body: Readable): Promise<{ size: number }> {
    const objectKey = this.objectKey(key);
    // the client first: once piped, `counted` flows (its size listener), and what it passed before the upload
    // read it would be lost; the source's error meanwhile is heard (unheard, it would end the process) and answered
    let early: unknown;
    const heard = (err: unknown) => (early ??= err);
    body.on('error', heard);
    const { sdk, s3 } = await this.connect().catch((err: unknown) => {
      body.destroy();
      throw err;
    });
    body.off('error', heard);
    if (early !== undefined) {
      body.destroy();
      throw early;
    }
    let size = 0;
    const counted = new PassThrough();
    counted.on('data', (chunk: Buffer) => (size += chunk.length));
    body.on('error', (err) => counted.destroy(err));
    body.pipe(counted);
    try {
      await new sdk.upload.Upload({
        client: s3,
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
    const { sdk, s3 } = await this.connect();
    try {
      const res = await s3.send(new sdk.s3.GetObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      return { stream: res.Body as Readable, size: Number(res.ContentLength ?? 0), contentType: mediaContentType(key) };
    } catch (err) {
      if (notFound(err)) return null;
      throw err;
    }
  }

  async head(key: string): Promise<{ size: number } | null> {
    const { sdk, s3 } = await this.connect();
    try {
      const res = await s3.send(new sdk.s3.HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      return { size: Number(res.ContentLength ?? 0) };
    } catch (err) {
      if (notFound(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    const { sdk, s3 } = await this.connect();
    await s3.send(new sdk.s3.DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
  }

  /** Lists the company's objects a page (1,000) at a time and deletes each page in one call. */
  async deleteCompany(companyId: number): Promise<void> {
    if (!Number.isSafeInteger(companyId) || companyId <= 0) throw new Error(`not a company id: ${companyId}`);
    const { sdk, s3 } = await this.connect();
    let token: string | undefined;
    do {
      const page = await s3.send(
        new sdk.s3.ListObjectsV2Command({ Bucket: this.bucket, Prefix: `${this.prefix}${companyId}/`, ContinuationToken: token }),
      );
      const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
      if (keys.length > 0) await s3.send(new sdk.s3.DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: keys, Quiet: true } }));
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
