import { Suspense, useState, type ReactNode } from 'react';

/**
 * Shows `placeholder` (a plain button) until the user reaches for it, then `children`: usually a lazily
 * loaded menu or popover that opens at once (`defaultOpen`). Menus and popovers carry their own state
 * machines and positioning code; the first paint of the app neither loads nor starts them.
 */
export function Deferred({ placeholder, children }: { placeholder: (arm?: () => void) => ReactNode; children: ReactNode }) {
  const [armed, setArmed] = useState(false);
  if (!armed) return <>{placeholder(() => setArmed(true))}</>;
  return <Suspense fallback={placeholder()}>{children}</Suspense>;
}
