import { beforeEach, describe, expect, it } from '@jest/globals';
import { clearLocalStorage, clearSession, StorageKeys } from '../storage';

const fill = () => {
  localStorage.setItem(StorageKeys.token, 't');
  localStorage.setItem(StorageKeys.companyId, '1');
  localStorage.setItem(StorageKeys.preferredTheme, 'dark');
  localStorage.setItem(StorageKeys.language, 'en');
  localStorage.setItem(StorageKeys.volume, '0.5');
};

describe('local storage', () => {
  beforeEach(() => localStorage.clear());

  it('logout takes the session and leaves the preferences', () => {
    fill();
    clearSession();
    expect(localStorage.getItem(StorageKeys.token)).toBeNull();
    expect(localStorage.getItem(StorageKeys.companyId)).toBeNull();
    expect(localStorage.getItem(StorageKeys.preferredTheme)).toBe('dark');
    expect(localStorage.getItem(StorageKeys.language)).toBe('en');
  });

  it('a session ended elsewhere clears all of it (spec 01 §4)', () => {
    fill();
    clearLocalStorage();
    expect(localStorage.length).toBe(0);
  });
});
