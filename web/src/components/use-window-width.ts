import { useSyncExternalStore } from 'react';

function subscribe(cb: () => void) {
  window.addEventListener('resize', cb);
  return () => window.removeEventListener('resize', cb);
}

export function useWindowWidth(): number {
  return useSyncExternalStore(
    subscribe,
    () => window.innerWidth,
    () => 1280,
  );
}

/** spec 01 §2 "Layout behaviour". */
export const DRAWER_OPEN_ABOVE_PX = 1200;
export const DRAWER_TEMPORARY_BELOW_PX = 600;
export const DRAWER_WIDTH_PX = 240;
