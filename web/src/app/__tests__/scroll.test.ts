import { describe, expect, it } from '@jest/globals';
import { isNearEnd, isNearTop, keptScrollTop } from '../scroll';

describe('infinite scroll arithmetic (spec 01 §9)', () => {
  it('the ticket list loads its next page within 100 px of the end', () => {
    expect(isNearEnd({ scrollHeight: 2000, clientHeight: 600, scrollTop: 1301 }, 100)).toBe(true);
    expect(isNearEnd({ scrollHeight: 2000, clientHeight: 600, scrollTop: 1300 }, 100)).toBe(false);
    // a page shorter than the panel: at its end already
    expect(isNearEnd({ scrollHeight: 400, clientHeight: 600, scrollTop: 0 }, 100)).toBe(true);
  });

  it('the chat loads older messages within 50 px of the top', () => {
    expect(isNearTop({ scrollTop: 49 }, 50)).toBe(true);
    expect(isNearTop({ scrollTop: 50 }, 50)).toBe(false);
  });

  it('keeps the same message in view when older ones are put above it', () => {
    // 1200 px of older messages arrived while the view was 30 px from the top
    expect(keptScrollTop({ height: 3000, top: 30 }, 4200)).toBe(1230);
  });
});
