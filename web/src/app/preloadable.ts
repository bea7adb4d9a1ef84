import { createElement, lazy, useState, type ComponentType } from 'react';

export type Preloadable<P extends object> = ComponentType<P> & { preload: () => Promise<void> };

/**
 * `React.lazy` that can be loaded ahead, and renders at once when it was: a lazy component suspends on its first
 * render even when its module is already here, and React (19) shows what a boundary suspended on no sooner than
 * 300 ms after it showed the fallback — on a cold load of /tickets that was the layout's spinner, then the page's,
 * each held its 300 ms. Loaded before the render (`preload`), the page renders without a fallback.
 */
export function preloadable<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): Preloadable<P> {
  let loaded: ComponentType<P> | undefined;
  let started: Promise<ComponentType<P>> | undefined;
  const start = () =>
    (started ??= load().then((m) => {
      loaded = m.default;
      return m.default;
    }));
  const Lazy = lazy(() => start().then((component) => ({ default: component })));
  function Page(props: P) {
    // chosen once per mount: the module arriving later does not swap the page (and lose its state)
    const [component] = useState<ComponentType<P>>(() => loaded ?? (Lazy as unknown as ComponentType<P>));
    return createElement(component, props);
  }
  return Object.assign(Page, { preload: () => start().then(() => undefined) });
}
