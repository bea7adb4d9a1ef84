/**
 * socket.io's client socket as a test plays the server's side of it: `fire('connect')`, `fire('disconnect', reason)` or
 * any channel with its payload; what the console emits goes nowhere. Tests hand it in for `io()` with
 * `jest.unstable_mockModule('socket.io-client', …)`.
 */
export class FakeSocket {
  connected = false;
  private handlers = new Map<string, Set<(...a: unknown[]) => void>>();
  on(event: string, h: (...a: unknown[]) => void) {
    const set = this.handlers.get(event) ?? new Set();
    set.add(h);
    this.handlers.set(event, set);
    return this;
  }
  off(event: string, h: (...a: unknown[]) => void) {
    this.handlers.get(event)?.delete(h);
    return this;
  }
  emit() {
    return this;
  }
  connect() {
    return this;
  }
  disconnect() {
    if (this.connected) this.fire('disconnect', 'io client disconnect');
    return this;
  }
  fire(event: string, ...args: unknown[]) {
    if (event === 'connect') this.connected = true;
    if (event === 'disconnect') this.connected = false;
    for (const h of this.handlers.get(event) ?? []) h(...args);
  }
}
