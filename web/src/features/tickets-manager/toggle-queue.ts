/**
 * The selected queues of the ticket lists. An empty selection means every queue (as the server reads
 * an empty `queueIds`); choosing every queue again goes back to it.
 */
export function toggleQueue(selected: number[], all: number[], id: number): number[] {
  const current = selected.length === 0 ? all : selected;
  const next = current.includes(id) ? current.filter((q) => q !== id) : [...current, id];
  return next.length === all.length && all.every((q) => next.includes(q)) ? [] : next.length === 0 ? current : next;
}
