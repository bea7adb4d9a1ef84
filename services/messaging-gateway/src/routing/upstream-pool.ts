/** How long an upstream that refused a connection is passed over. */
const DOWN_FOR_MS = 5_000;

/**
 * The addresses of a service run as several plain processes (off Kubernetes, where a Service spreads the calls):
 * each call goes to the next one in turn, passing over for a few seconds one that refused a connection (a replica
 * stopped or killed); when all did, to the next anyway. With one address, always that one.
 */
export class UpstreamPool {
  readonly urls: readonly string[];
  private next = 0;
  private readonly downUntil = new Map<string, number>();

  constructor(list: string) {
    this.urls = list
      .split(',')
      .map((u) => u.trim())
      .filter(Boolean);
    if (this.urls.length === 0) throw new Error('an upstream pool needs at least one address');
  }

  /** The address for the next call. */
  pick(): string {
    const now = Date.now();
    for (let i = 0; i < this.urls.length; i++) {
      const url = this.urls[(this.next + i) % this.urls.length] as string;
      if ((this.downUntil.get(url) ?? 0) <= now) {
        this.next = (this.next + i + 1) % this.urls.length;
        return url;
      }
    }
    const url = this.urls[this.next] as string;
    this.next = (this.next + 1) % this.urls.length;
    return url;
  }

  /** The address refused a connection: passed over for a while. */
  down(url: string): void {
    if (this.urls.length > 1) this.downUntil.set(url, Date.now() + DOWN_FOR_MS);
  }
}
