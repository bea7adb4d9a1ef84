import { describe, expect, it } from '@jest/globals';
import { isRecentHistory } from './history.js';

describe('isRecentHistory: which history messages are imported', () => {
  const now = Date.UTC(2026, 10, 29, 12, 0, 0);
  const hour = 3_600_000;

  it('imports a message sent within the last `hours` hours, up to the boundary itself', () => {
    expect(isRecentHistory({ timestamp: now - hour }, 24, now)).toBe(true);
    expect(isRecentHistory({ timestamp: now - 24 * hour }, 24, now)).toBe(true);
    // a phone whose clock runs ahead: still recent
    expect(isRecentHistory({ timestamp: now + 5000 }, 24, now)).toBe(true);
  });

  it('drops an older one, everything when the window is 0, and an undecryptable stub whatever its age', () => {
    expect(isRecentHistory({ timestamp: now - 24 * hour - 1000 }, 24, now)).toBe(false);
    expect(isRecentHistory({ timestamp: now - 48 * hour }, 72, now)).toBe(true);
    expect(isRecentHistory({ timestamp: now - 1000 }, 0, now)).toBe(false);
    expect(isRecentHistory({ timestamp: now - 1000, resend: 'waiting' }, 24, now)).toBe(false);
  });
});
