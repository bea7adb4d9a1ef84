import { describe, expect, it } from '@jest/globals';
import { act, render, screen } from '@testing-library/react';
import { Suspense, useState, type ComponentType } from 'react';
import { preloadable } from '../preloadable';

/** A page module that arrives when the test says so. */
function pageModule() {
  let arrive: () => void = () => undefined;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  function Counter({ label }: { label: string }) {
    const [n, setN] = useState(0);
    return (
      <button data-testid="page" onClick={() => setN((x) => x + 1)}>
        {label} {n}
      </button>
    );
  }
  const load = () => arrived.then(() => ({ default: Counter }));
  return { load, arrive };
}

const shell = (Page: ComponentType<{ label: string }>, label = 'page') => (
  <Suspense fallback={<span data-testid="spinner" />}>
    <Page label={label} />
  </Suspense>
);

describe('a page loaded ahead (the signed-in layout and ticket manager of a cold load)', () => {
  it('renders at once, without the spinner, once preloaded', async () => {
    const mod = pageModule();
    const Page = preloadable(mod.load);
    const ready = Page.preload();
    mod.arrive();
    await ready;
    render(shell(Page));
    expect(screen.queryByTestId('spinner')).toBeNull();
    expect(screen.getByTestId('page').textContent).toBe('page 0');
  });

  it('not preloaded, shows the spinner until it arrives, as a lazy page does', async () => {
    const mod = pageModule();
    const Page = preloadable(mod.load);
    render(shell(Page));
    expect(screen.getByTestId('spinner')).toBeTruthy();
    await act(async () => mod.arrive());
    expect((await screen.findByTestId('page')).textContent).toBe('page 0');
  });

  it('keeps its state when rendered again after the module arrived', async () => {
    const mod = pageModule();
    const Page = preloadable(mod.load);
    const r = render(shell(Page, 'a'));
    await act(async () => mod.arrive());
    const button = await screen.findByTestId('page');
    act(() => button.click());
    r.rerender(shell(Page, 'b'));
    expect(screen.getByTestId('page').textContent).toBe('b 1');
  });
});
