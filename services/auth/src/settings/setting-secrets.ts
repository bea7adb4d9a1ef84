import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { SecretBox } from '@wa/server-kit';
import { AuthEnv } from '../config/env.js';
import { SettingsRepository } from './settings.repository.js';

/** spec 02 §3: the settings that are credentials of outside systems (IXC, MK-Auth, Asaas). */
export const SECRET_SETTING_KEYS: ReadonlySet<string> = new Set(['tokenixc', 'clientsecretmkauth', 'asaas']);
/** What a secret shows as: its last 4 characters behind this. */
export const SECRET_MASK = '••••';

/** A setting as a reader without the key sees it (a company's settings in its view): a secret only as set or not. */
export function hiddenSecret(key: string, value: string): string {
  return SECRET_SETTING_KEYS.has(key) && value ? SECRET_MASK : value;
}

/**
 * The company settings that are secrets, at rest: sealed (AES-256-GCM) when written, never answered or
 * announced whole (only `••••` and the last 4 characters, so an admin recognises which key is set). Values
 * written before this are sealed when the service starts.
 */
@Injectable()
export class SettingSecrets implements OnApplicationBootstrap {
  private readonly log = new Logger(SettingSecrets.name);
  private readonly box: SecretBox;

  constructor(
    env: AuthEnv,
    private readonly settings: SettingsRepository,
  ) {
    this.box = new SecretBox(env.AUTH_SECRETS_KEY || `dev-only:${env.JWT_SECRET}`, 'company-setting');
  }

  isSecret(key: string): boolean {
    return SECRET_SETTING_KEYS.has(key);
  }

  /** What the database keeps for a value of `key`. */
  stored(key: string, value: string): string {
    return this.isSecret(key) && value ? this.box.seal(value) : value;
  }

  /** What a reader (the settings page, an event) is given for a stored value of `key`. */
  shown(key: string, stored: string): string {
    if (!this.isSecret(key) || !stored) return stored;
    const plain = this.box.open(stored);
    return plain === null ? SECRET_MASK : `${SECRET_MASK}${plain.slice(-4)}`;
  }

  /** A secret sent back as it was shown (the masked form): it is not a new value. */
  isShownForm(key: string, value: string): boolean {
    return this.isSecret(key) && value.startsWith(SECRET_MASK);
  }

  async onApplicationBootstrap(): Promise<void> {
    const rows = await this.settings.ofKeys(SECRET_SETTING_KEYS);
    let sealed = 0;
    for (const row of rows) {
      if (!row.value || SecretBox.isSealed(row.value)) continue;
      await this.settings.setValue(row.id, this.box.seal(row.value));
      sealed++;
    }
    if (sealed > 0) this.log.log({ sealed }, 'secret settings stored in clear are now encrypted');
  }
}
