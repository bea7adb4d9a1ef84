/**
 * Live changes that come while a cached query's request is on its way. Its answer may have been read on the server
 * before them (a first load, a load again after the socket connected or an invalidation, the next page), and landing
 * would undo them: a customer's message shown, then gone from the chat until it is opened again. An endpoint notes
 * each change against the requests then pending (`note`) and plays them again, in order, on the answer as it lands
 * (`take` in its `onQueryStarted`); on an answer read after them they change nothing (each change is idempotent:
 * it carries the row as it then was, and any later change of it comes after).
 */
export class ChangesInFlight<C> {
  private readonly byRequest = new Map<string, C[]>();

  constructor(private readonly endpointName: string) {}

  /** Notes `change` for every request of the endpoint on its way whose argument `matches` (every one without it). */
  note(state: unknown, change: C, matches: (originalArgs: unknown) => boolean = () => true): void {
    const queries = (state as { api: { queries: Record<string, PendingQuery | undefined> } }).api.queries;
    for (const q of Object.values(queries)) {
      if (q?.endpointName !== this.endpointName || q.status !== 'pending' || !q.requestId || !matches(q.originalArgs)) continue;
      this.byRequest.set(q.requestId, [...(this.byRequest.get(q.requestId) ?? []), change]);
    }
  }

  /**
   * Waits for the request's answer; answers the changes that came while it was on its way when it landed (none when
   * it failed or none came). Nothing is kept past the request.
   */
  async take(requestId: string, fulfilled: Promise<unknown>): Promise<C[] | undefined> {
    const landed = await fulfilled.then(
      () => true,
      () => false,
    );
    const missed = this.byRequest.get(requestId);
    this.byRequest.delete(requestId);
    return landed ? missed : undefined;
  }
}

interface PendingQuery {
  endpointName?: string;
  status?: string;
  requestId?: string;
  originalArgs?: unknown;
}
