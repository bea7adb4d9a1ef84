import { configure } from '@testing-library/dom';

// Waits (waitFor, findBy…) give a screen up to 5 s, not 1: a screen's code loaded when first used (lazy) is transformed
// by jest on that first use, which took over a second on a loaded 2-core CI (the chats popover's items, once). From
// @testing-library/dom: loading @testing-library/react here, before the test framework, would cost it its cleanup
// between tests.
configure({ asyncUtilTimeout: 5000 });

// the i18n instance (Portuguese), as main.tsx sets it up, with the signed-in app's texts as the layout adds them
import '../app/i18n';
import '../app/app-texts';
// the signed-in app's component recipes, as the layout adds them to the Chakra system
import '../app/app-recipes';

// What jsdom lacks and the UI libraries expect.
if (typeof window !== 'undefined') {
  if (!window.matchMedia) {
    window.matchMedia = (query: string) =>
      ({
        matches: false,
        media: query,
        onchange: null,
        addListener: () => undefined,
        removeListener: () => undefined,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
        dispatchEvent: () => false,
      }) as unknown as MediaQueryList;
  }
  if (!('ResizeObserver' in window)) {
    (window as unknown as { ResizeObserver: unknown }).ResizeObserver = class {
      observe() {}
      unobserve() {}
      disconnect() {}
    };
  }
  if (!Element.prototype.scrollTo) Element.prototype.scrollTo = function scrollTo() {};
  if (!window.scrollTo) window.scrollTo = () => undefined;
}
