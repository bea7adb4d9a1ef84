import { useState, type ReactNode } from 'react';

/**
 * Shows `placeholder` (a plain button) until the user reaches for it, then `children`, which open at
 * once (`defaultOpen`). Menus and popovers each start a state machine when mounted; on the first
 * paint of the app they would only cost time.
 */
export function Deferred({ placeholder, children }: { placeholder: (arm: () => void) => ReactNode; children: ReactNode }) {
  const [armed, setArmed] = useState(false);
  return <>{armed ? children : placeholder(() => setArmed(true))}</>;
}
