const seen = new Set<string>();

/** User-timing marks of the start-up path, each once (seen in the browser's performance panel and by bench/web). */
export function mark(name: string): void {
  if (seen.has(name)) return;
  seen.add(name);
  try {
    performance.mark(`conversa:${name}`);
  } catch {
    /* no user timing here */
  }
}
