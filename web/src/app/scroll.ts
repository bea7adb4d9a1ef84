/** Scroll arithmetic of the infinite lists (spec 01 §9: 100 px from the end of a list, 50 px from the top of a chat). */
export interface ScrollBox {
  scrollHeight: number;
  scrollTop: number;
  clientHeight: number;
}

/** spec 01 §9, spec 02 §9: a list loads its next page when scrolled within 100 px of its end. */
export const LIST_END_PX = 100;

export function isNearEnd(el: ScrollBox, px: number): boolean {
  return el.scrollHeight - el.scrollTop - el.clientHeight < px;
}

export function isNearTop(el: Pick<ScrollBox, 'scrollTop'>, px: number): boolean {
  return el.scrollTop < px;
}

/** After older content was put above: the scrollTop that keeps the same content in view. */
export function keptScrollTop(before: { height: number; top: number }, heightNow: number): number {
  return heightNow - before.height + before.top;
}
