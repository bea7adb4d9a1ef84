import { jest } from '@jest/globals';
import { fireEvent } from '@testing-library/react';

/**
 * jsdom lays nothing out: gives the element with `testId` a scroll height and a visible height (every other
 * element none), so a list's infinite scroll can be driven. `restore()` when done.
 */
export function mockScrollBox(testId: string, box: { scrollHeight: number; clientHeight: number }) {
  const height = jest.spyOn(HTMLElement.prototype, 'scrollHeight', 'get').mockImplementation(function (this: HTMLElement) {
    return this.dataset.testid === testId ? box.scrollHeight : 0;
  });
  const client = jest.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (this: HTMLElement) {
    return this.dataset.testid === testId ? box.clientHeight : 0;
  });
  return {
    /** scrolls the element to `top` and lets it react */
    scrollTo(el: HTMLElement, top: number) {
      el.scrollTop = top;
      fireEvent.scroll(el);
    },
    restore() {
      height.mockRestore();
      client.mockRestore();
    },
  };
}
