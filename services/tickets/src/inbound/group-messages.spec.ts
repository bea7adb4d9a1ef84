import { describe, expect, it } from '@jest/globals';
import { ignoresGroups } from './group-messages.js';

describe('ignoresGroups (CheckMsgIsGroup)', () => {
  it("ignores group messages unless the setting is 'disabled'; a company without a copy of it follows the default, enabled", () => {
    expect(ignoresGroups('enabled')).toBe(true);
    expect(ignoresGroups(undefined)).toBe(true);
    expect(ignoresGroups('disabled')).toBe(false);
  });
});
