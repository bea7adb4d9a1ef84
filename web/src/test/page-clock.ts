import { jest } from '@jest/globals';

/**
 * A cold load of the page starts now: `performance.now()` counts from here, as a browser counts it from the
 * navigation, until the returned function puts it back. jsdom counts from the test file's start, which on a loaded CI
 * was more than the 10 s an early answer serves (EARLY_FOR_MS) before the first test ran.
 */
export function pageLoadsNow(): () => void {
  const real = performance.now.bind(performance);
  const start = real();
  const clock = jest.spyOn(performance, 'now').mockImplementation(() => real() - start);
  return () => clock.mockRestore();
}
