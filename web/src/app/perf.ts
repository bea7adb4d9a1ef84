/** User-timing marks of the start-up path (seen in the browser's performance panel and by bench/web). */
export function mark(name: string): void {
  try {
    performance.mark(`conversa:${name}`);
  } catch {
    /* no user timing here */
  }
}
