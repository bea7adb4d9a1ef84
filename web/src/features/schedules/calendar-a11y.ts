import { useEffect, type RefObject } from 'react';

/**
 * react-big-calendar's month view is an ARIA table whose week rows (`role="row"`) hold the events' segments as
 * plain elements, so the events' buttons (edit, delete, "+N more") are children a row may not have (axe's
 * aria-required-children, critical). Each segment becomes a cell (a span of days holding the events of a row),
 * and the table's English name ("Month View") the user's language's, as the calendar draws them: a
 * MutationObserver follows its re-renders (the library has no prop for either; React leaves attributes it does
 * not manage alone).
 */
export function fixMonthViewRoles(root: ParentNode, monthLabel: string): void {
  for (const table of root.querySelectorAll<HTMLElement>('.rbc-month-view[role=table]'))
    if (table.getAttribute('aria-label') !== monthLabel) table.setAttribute('aria-label', monthLabel);
  for (const segment of root.querySelectorAll<HTMLElement>('.rbc-month-view [role=row] .rbc-row-segment'))
    if (segment.getAttribute('role') !== 'cell') segment.setAttribute('role', 'cell');
}

/** Keeps fixMonthViewRoles applied to the calendar under `ref` while it is shown. */
export function useMonthViewRoles(ref: RefObject<HTMLElement | null>, monthLabel: string): void {
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    fixMonthViewRoles(el, monthLabel);
    const observer = new MutationObserver(() => fixMonthViewRoles(el, monthLabel));
    observer.observe(el, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [ref, monthLabel]);
}
