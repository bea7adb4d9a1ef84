import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { ApiIdentity } from '@wa/auth';
import type { ApiInstanceDto, ApiInstanceQrcodeDto, ApiPairingCodeDto, PairingCodeResponse } from '@wa/contracts';
import { currentContext, DomainError, runInContext } from '@wa/server-kit';
import { ConnectionsRepository } from '../connections/connections.repository.js';
import type { ConnectionEntity } from '../database/entities/connection.entity.js';
import { SessionRuntime } from '../runtime/session-runtime.js';

/**
 * The public API's instance (issue 45 §3): the connection whose API token calls, as Evolution API's integrators know
 * an instance. Its state, its QR code and a pairing code while it waits for a pairing, and its session restarted or
 * logged out: the same session commands as the console's `/whatsappsession/:id`, wherever the session runs.
 */
@Injectable()
export class InstanceService {
  constructor(
    private readonly connections: ConnectionsRepository,
    private readonly runtime: SessionRuntime,
  ) {}

  async instance(api: ApiIdentity): Promise<ApiInstanceDto> {
    const c = await this.mustFind(api);
    return {
      id: c.id,
      name: c.name,
      status: c.status,
      number: c.number ?? null,
      qrcode: waitingQr(c),
      updatedAt: new Date(c.updatedAt).toISOString(),
    };
  }

  /** The QR code while the session waits for a scan; 409 ERR_WAPP_ALREADY_CONNECTED once paired. */
  async qrcode(api: ApiIdentity): Promise<ApiInstanceQrcodeDto> {
    const c = await this.mustFind(api);
    if (c.status === 'CONNECTED') throw alreadyConnected();
    return { status: c.status, qrcode: waitingQr(c) };
  }

  /** A pairing code for the phone `number` (Baileys' requestPairingCode), while the session waits for a pairing. */
  async pairingCode(api: ApiIdentity, number: string): Promise<ApiPairingCodeDto> {
    const c = await this.mustFind(api);
    if (c.status === 'CONNECTED') throw alreadyConnected();
    if (c.status !== 'qrcode')
      throw new DomainError(
        'ERR_WAPP_NOT_INITIALIZED',
        { status: c.status },
        `The connection is not waiting for a pairing (it is ${c.status}): restart it, then ask again.`,
      );
    const { code } = (await this.runtime.command(c.id, { action: 'pairingCode', number })) as PairingCodeResponse;
    return { pairingCode: code };
  }

  /** The session closes and opens again, its pairing kept (one that is down starts; unpaired: a QR follows). */
  async restart(api: ApiIdentity): Promise<void> {
    const c = await this.mustFind(api);
    await this.runtime.command(c.id, { action: 'start', reconnect: true });
  }

  /** The console's disconnect: the phone unlinked (logout), the session stopped, the status DISCONNECTED. */
  async logout(api: ApiIdentity): Promise<void> {
    const c = await this.mustFind(api);
    await this.runtime.command(c.id, { action: 'end' });
  }

  /** The token's connection, read in its company (the repository's scope). */
  private async mustFind(api: ApiIdentity): Promise<ConnectionEntity> {
    const requestId = currentContext()?.requestId ?? randomUUID();
    const c = await runInContext({ requestId, companyId: api.companyId }, () => this.connections.byId(api.connectionId));
    if (!c) throw new DomainError('ERR_NO_WAPP_FOUND');
    return c;
  }
}

const waitingQr = (c: ConnectionEntity): string | null => (c.status === 'qrcode' && c.qrcode ? c.qrcode : null);

const alreadyConnected = () => new DomainError('ERR_WAPP_ALREADY_CONNECTED', { status: 'CONNECTED' });
