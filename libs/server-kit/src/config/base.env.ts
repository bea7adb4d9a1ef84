import { Secret } from './secrets.js';
import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Matches, Max, Min, MinLength, ValidateIf } from 'class-validator';

/** What every service reads. Defaults suit one machine; secrets have none. */
export class BaseEnv {
  @IsIn(['development', 'production', 'test'])
  NODE_ENV: string = 'development';

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL: string = 'info';

  @IsString()
  HOST: string = '127.0.0.1';

  @IsInt()
  @Min(0)
  @Max(65535)
  PORT: number = 0;

  /** Upper bound of a JSON request body. */
  @Matches(/^\d+(b|kb|mb)$/i)
  BODY_LIMIT: string = '1mb';

  /**
   * Addresses whose X-Forwarded-For is believed (comma list of IPs, CIDRs, or `loopback`, `linklocal`,
   * `uniquelocal`; `none` believes no one). Default: only this machine (the gateway or the dev proxy).
   * A header from anyone else is ignored: the client address is the connection's.
   */
  @Matches(/^(none|[\w.:/]+(\s*,\s*[\w.:/]+)*)$/, {
    message: 'TRUSTED_PROXIES must be `none` or a comma list of addresses, CIDRs, loopback, linklocal or uniquelocal',
  })
  TRUSTED_PROXIES: string = 'loopback';

  /** Seconds given to in-flight work on SIGTERM before the process exits anyway. */
  @IsInt()
  @Min(1)
  SHUTDOWN_TIMEOUT_S: number = 20;
}

const DEFAULT_DATABASE_URL = 'postgres://postgres:postgres@127.0.0.1:5432/wa';
const DATABASE_URL_RULE = { message: 'DATABASE_URL must be a postgres:// URL' };

/** TRUSTED_PROXIES as Express' `trust proxy` / proxy-addr take it: a list, or false for none. */
export function trustedProxies(env: Pick<BaseEnv, 'TRUSTED_PROXIES'>): string[] | false {
  const list = env.TRUSTED_PROXIES.split(',')
    .map((s) => s.trim())
    .filter((s) => s && s !== 'none');
  return list.length > 0 ? list : false;
}

/** Migrations and seeds: only the database. */
export class DatabaseEnv extends BaseEnv {
  @Matches(/^postgres(ql)?:\/\/.+/, DATABASE_URL_RULE)
  DATABASE_URL: string = DEFAULT_DATABASE_URL;
}

/** Redis, NATS and token verification: every long-running process. */
export class MessagingEnv extends BaseEnv {
  @Matches(/^rediss?:\/\/.+/, { message: 'REDIS_URL must be a redis:// URL' })
  REDIS_URL: string = 'redis://127.0.0.1:6379/0';

  @Matches(/^(nats|tls):\/\/.+/, { message: 'NATS_URL must be a nats:// URL' })
  NATS_URL: string = 'nats://127.0.0.1:4222';

  /**
   * This service's NATS user (k8s/base/nats.conf: one per service, each allowed its own subjects only).
   * Empty on an open development server; production requires a user and its password.
   */
  @ValidateIf((o: { NATS_USER?: string; NATS_PASSWORD?: string }) => Boolean(o.NATS_USER || o.NATS_PASSWORD))
  @Matches(/^[A-Za-z0-9_-]+$/, { message: 'NATS_USER (needed with NATS_PASSWORD) may hold letters, digits, - and _' })
  NATS_USER?: string;

  /**
   * nats-server reads its NATS_PASSWORD_<SERVICE> as a config value: a letter first, then letters, digits,
   * - and _ only (`echo "n$(openssl rand -hex 32)"`); anything else it misreads.
   */
  @Secret({ requiredInProduction: true })
  @IsOptional()
  @Matches(/^[A-Za-z][A-Za-z0-9_-]*$/, {
    message:
      'NATS_PASSWORD must start with a letter and hold only letters, digits, - and _ (nats-server reads it as a config value; generate one with: echo "n$(openssl rand -hex 32)")',
  })
  NATS_PASSWORD?: string;

  /** How long JetStream streams keep messages (seconds); default a week. */
  @IsInt()
  @Min(60)
  NATS_STREAM_MAX_AGE_S: number = 7 * 24 * 3600;

  /**
   * Size bound of each stream in bytes (a full stream refuses publishes: callers get 503, nothing is
   * dropped). 0: the per-stream defaults of @wa/event-bus (WA 8 GiB, TICKETS 4 GiB, DLQ 2 GiB, others 1 GiB).
   */
  @IsInt()
  @Min(0)
  NATS_STREAM_MAX_BYTES: number = 0;

  /** Secret that signs access tokens; no default on purpose (in production: 32 bytes or more, no placeholder). */
  @Secret()
  @IsString()
  @IsNotEmpty()
  @MinLength(16)
  JWT_SECRET: string;
}

/** A service with tables of its own. */
export class InfraEnv extends MessagingEnv {
  @Matches(/^postgres(ql)?:\/\/.+/, DATABASE_URL_RULE)
  DATABASE_URL: string = DEFAULT_DATABASE_URL;

  @IsInt()
  @Min(1)
  DATABASE_POOL_SIZE: number = 10;

  /**
   * Where media files are kept (messages' images, audio, video, documents): a directory, relative to the
   * working directory or absolute. tickets and whatsapp-sessions must see the same files (one machine, or
   * one volume mounted by every pod of both).
   */
  @IsString()
  @IsNotEmpty()
  MEDIA_DIR: string = '.data/media';

  /** `local` (MEDIA_DIR) or `s3` (an S3-compatible bucket: AWS S3, MinIO…, the MEDIA_S3_* settings). */
  @IsIn(['local', 's3'])
  MEDIA_STORAGE: 'local' | 's3' = 'local';

  /** The bucket (required with MEDIA_STORAGE=s3). */
  @ValidateIf((o: { MEDIA_STORAGE?: string }) => o.MEDIA_STORAGE === 's3')
  @IsString()
  @IsNotEmpty({ message: 'MEDIA_S3_BUCKET is required with MEDIA_STORAGE=s3' })
  MEDIA_S3_BUCKET?: string;

  @IsString()
  MEDIA_S3_REGION: string = 'us-east-1';

  /** Another S3-compatible server (MinIO, Ceph…); empty: AWS. */
  @IsOptional()
  @IsString()
  MEDIA_S3_ENDPOINT?: string;

  /** Path-style URLs (`endpoint/bucket/key`), as most S3-compatible servers want. */
  @IsIn(['true', 'false'])
  MEDIA_S3_FORCE_PATH_STYLE: string = 'true';

  /** Keys of the bucket's user; empty: the SDK's own chain (instance role, AWS_* variables). */
  @IsOptional()
  @IsString()
  MEDIA_S3_ACCESS_KEY_ID?: string;

  @Secret()
  @IsOptional()
  @IsString()
  MEDIA_S3_SECRET_ACCESS_KEY?: string;
}
