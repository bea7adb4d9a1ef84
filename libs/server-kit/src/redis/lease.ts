import type { Redis } from 'ioredis';

/** Extends the key's expiry when the key holds our owner id; 1 when it did, 0 when it is someone else's or gone. */
const RENEW_IF_OURS = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end`;
/**
 * Renews our lease, or takes it again when it expired and nobody took it meanwhile (Redis was away for
 * longer than the TTL, so we could not renew, and nobody else could take it either); 0 when someone else holds it.
 */
const KEEP = `local v = redis.call('GET', KEYS[1])
if v == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2])
elseif not v then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1
else return 0 end`;
/** Deletes the key when it holds our owner id (never someone else's lease). */
const RELEASE_IF_OURS = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

export interface RedisLeaseOptions {
  /** who holds the leases this instance takes (stored as the keys' value, shown to operators) */
  owner: string;
  /** a lease not renewed within this time is free for anyone */
  ttlMs: number;
}

/**
 * Leases in Redis: a key holds its owner's id (`SET key owner NX PX ttl`) while the owner keeps
 * renewing it, and expires on its own when the owner stops (a crash), so another process can take
 * over after `ttlMs`. One instance takes any number of keys for the same owner.
 */
export class RedisLease {
  readonly owner: string;
  readonly ttlMs: number;

  constructor(
    private readonly redis: Redis,
    options: RedisLeaseOptions,
  ) {
    this.owner = options.owner;
    this.ttlMs = options.ttlMs;
  }

  /** Takes the lease when it is free, or renews it when it is already ours; false when someone else holds it. */
  async acquire(key: string): Promise<boolean> {
    if ((await this.redis.set(key, this.owner, 'PX', this.ttlMs, 'NX')) === 'OK') return true;
    return this.renew(key);
  }

  /** Extends our lease; false when it is no longer ours (expired, or taken by someone else). */
  async renew(key: string): Promise<boolean> {
    return (await this.redis.eval(RENEW_IF_OURS, 1, key, this.owner, String(this.ttlMs))) === 1;
  }

  /**
   * Extends many of our leases in one round trip. Answers the keys surely lost: a key whose own reply
   * was an error is not counted as lost (the next renewal decides). Rejects when Redis cannot be reached.
   */
  async renewMany(keys: string[]): Promise<string[]> {
    return this.evalMany(RENEW_IF_OURS, keys);
  }

  /**
   * Keeps many of our leases in one round trip: renews them, and takes back those that lapsed with nobody
   * taking them. Answers the keys someone else holds now. Rejects when Redis cannot be reached.
   */
  async keepMany(keys: string[]): Promise<string[]> {
    return this.evalMany(KEEP, keys);
  }

  /** Runs `script` on each key in one pipeline; answers the keys whose reply was not 1 (an error reply counts as neither). */
  private async evalMany(script: string, keys: string[]): Promise<string[]> {
    if (keys.length === 0) return [];
    const pipeline = this.redis.pipeline();
    for (const key of keys) pipeline.eval(script, 1, key, this.owner, String(this.ttlMs));
    const results = (await pipeline.exec()) ?? [];
    return keys.filter((_, i) => {
      const [err, value] = results[i] ?? [new Error('no reply'), 0];
      return !err && value !== 1;
    });
  }

  /** Lets go of our lease at once; a lease that is not ours is left alone. */
  async release(key: string): Promise<void> {
    await this.redis.eval(RELEASE_IF_OURS, 1, key, this.owner);
  }

  /** Who holds the lease (null: nobody). */
  holder(key: string): Promise<string | null> {
    return this.redis.get(key);
  }
}
