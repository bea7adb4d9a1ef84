import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import * as Q from './shippings.queries.js';

/** The campaign columns a send needs. */
export interface CampaignForSend {
  id: number;
  confirmation: boolean;
  messages: string[];
  confirmationMessages: string[];
  mediaPath: string | null;
  mediaName: string | null;
  fileListId: number | null;
}

export interface DueRow {
  id: string;
  number: string;
  name: string;
  email: string;
  status: 'pending' | 'confirmed';
  /** the number opted out of the company's campaigns after the audience froze */
  optedOut: boolean;
}

/**
 * The dispatcher's reads and writes of shipping rows, campaigns' states and the daily counts. Every method takes
 * the company explicitly (the background sweeps that span companies say so).
 */
@Injectable()
export class ShippingsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  async startCas(tx: EntityManager, companyId: number, id: number) {
    const rows = (await tx.query(Q.START_CAS, [companyId, id])) as [
      Array<{ id: number; whatsappId: number | null; contactListId: number | null; tagListId: string }>,
      number,
    ];
    return rows[0][0] ?? null;
  }

  async restartCas(tx: EntityManager, companyId: number, id: number) {
    const rows = (await tx.query(Q.RESTART_CAS, [companyId, id])) as [
      Array<{ id: number; whatsappId: number | null; contactListId: number | null; tagListId: string }>,
      number,
    ];
    return rows[0][0] ?? null;
  }

  async cancelCas(tx: EntityManager, companyId: number, id: number, reason: string | null): Promise<boolean> {
    const rows = (await tx.query(Q.CANCEL_CAS, [companyId, id, reason])) as [unknown[], number];
    return rows[0].length > 0;
  }

  async pauseConnection(tx: EntityManager, companyId: number, connectionId: number, reason: string): Promise<number[]> {
    const rows = (await tx.query(Q.PAUSE_CONNECTION, [companyId, connectionId, reason])) as [Array<{ id: number }>, number];
    return rows[0].map((r) => r.id);
  }

  async freezeList(tx: EntityManager, companyId: number, campaignId: number, connectionId: number, listId: number): Promise<void> {
    await tx.query(Q.FREEZE_LIST, [companyId, campaignId, connectionId, listId]);
  }

  async freezeNumbers(
    tx: EntityManager,
    companyId: number,
    campaignId: number,
    connectionId: number,
    people: Array<{ number: string; name: string; email: string }>,
  ): Promise<void> {
    for (let i = 0; i < people.length; i += 5000) {
      const part = people.slice(i, i + 5000);
      await tx.query(Q.FREEZE_NUMBERS, [
        companyId,
        campaignId,
        connectionId,
        part.map((p) => p.number),
        part.map((p) => p.name),
        part.map((p) => p.email),
      ]);
    }
  }

  async hasRows(tx: EntityManager, companyId: number, campaignId: number): Promise<boolean> {
    const rows = (await tx.query(Q.HAS_ROWS, [companyId, campaignId])) as Array<{ has: boolean }>;
    return rows[0]?.has ?? false;
  }

  /** Across companies: the sweep of campaigns whose date came. */
  dueCampaigns(): Promise<Array<{ id: number; companyId: number }>> {
    return this.db.query(Q.DUE_CAMPAIGNS);
  }

  async armedCampaign(
    companyId: number,
    id: number,
  ): Promise<{ id: number; companyId: number; version: number; scheduledAt: Date | null } | null> {
    const rows = (await this.db.query(Q.ARMED_CAMPAIGN, [companyId, id])) as Array<{
      id: number;
      companyId: number;
      version: number;
      scheduledAt: Date | null;
    }>;
    return rows[0] ?? null;
  }

  /** Across companies: the connections that have a running campaign. */
  runningConnections(): Promise<Array<{ connectionId: number; companyId: number }>> {
    return this.db.query(Q.RUNNING_CONNECTIONS);
  }

  async runningOn(companyId: number, connectionId: number): Promise<number[]> {
    const rows = (await this.db.query(Q.RUNNING_ON_CONNECTION, [companyId, connectionId])) as Array<{ id: number }>;
    return rows.map((r) => r.id);
  }

  async campaignForSend(tx: EntityManager, companyId: number, id: number): Promise<CampaignForSend | null> {
    const rows = (await tx.query(Q.CAMPAIGN_FOR_SEND, [companyId, id])) as Array<Record<string, unknown>>;
    const c = rows[0];
    if (!c) return null;
    const texts = (prefix: string) => [1, 2, 3, 4, 5].map((i) => String(c[`${prefix}${i}`] ?? ''));
    return {
      id: c.id as number,
      confirmation: c.confirmation as boolean,
      messages: texts('message'),
      confirmationMessages: texts('confirmationMessage'),
      mediaPath: (c.mediaPath as string | null) ?? null,
      mediaName: (c.mediaName as string | null) ?? null,
      fileListId: (c.fileListId as number | null) ?? null,
    };
  }

  async nextRow(tx: EntityManager, companyId: number, campaignId: number): Promise<DueRow | null> {
    const rows = (await tx.query(Q.NEXT_ROW, [companyId, campaignId])) as DueRow[];
    return rows[0] ?? null;
  }

  async skipOptedOut(tx: EntityManager, companyId: number, rowId: string): Promise<void> {
    await tx.query(Q.SKIP_OPTED_OUT, [companyId, rowId]);
  }

  async failRow(tx: EntityManager, companyId: number, rowId: string, reason: string): Promise<void> {
    await tx.query(Q.FAIL_ROW, [companyId, rowId, reason]);
  }

  async rowConfirming(tx: EntityManager, companyId: number, rowId: string, text: string, waMessageId: string): Promise<void> {
    await tx.query(Q.ROW_CONFIRMING, [companyId, rowId, text, waMessageId]);
  }

  async rowQueued(tx: EntityManager, companyId: number, rowId: string, text: string, waMessageId: string): Promise<void> {
    await tx.query(Q.ROW_QUEUED, [companyId, rowId, text, waMessageId]);
  }

  async countSend(tx: EntityManager, connectionId: number, day: string): Promise<void> {
    await tx.query(Q.COUNT_SEND, [connectionId, day]);
  }

  async sentOn(connectionId: number, day: string): Promise<number> {
    const rows = (await this.db.query(Q.SENT_ON_DAY, [connectionId, day])) as Array<{ count: number }>;
    return rows[0]?.count ?? 0;
  }

  async lastSend(connectionId: number): Promise<number | null> {
    const rows = (await this.db.query(Q.LAST_SEND, [connectionId])) as Array<{ lastAt: string | null }>;
    const v = rows[0]?.lastAt;
    return v === null || v === undefined ? null : Number(v);
  }

  async finishDone(tx: EntityManager | null, campaignIds: number[]): Promise<Array<{ id: number; companyId: number }>> {
    if (campaignIds.length === 0) return [];
    const rows = (await (tx ?? this.db).query(Q.FINISH_DONE, [campaignIds])) as [Array<{ id: number; companyId: number }>, number];
    return rows[0];
  }

  async markSent(tx: EntityManager, companyId: number, acks: Array<{ id: string; ack: number; at: number }>) {
    const rows = (await tx.query(Q.MARK_SENT, [companyId, acks.map((a) => a.id), acks.map((a) => a.ack), acks.map((a) => a.at)])) as [
      Array<{ id: string; campaignId: number; connectionId: number; number: string; message: string; waMessageId: string; at: number }>,
      number,
    ];
    return rows[0];
  }

  async raiseAcks(tx: EntityManager, companyId: number, acks: Array<{ id: string; ack: number; at: number }>): Promise<number[]> {
    const rows = (await tx.query(Q.RAISE_ACKS, [companyId, acks.map((a) => a.id), acks.map((a) => a.ack), acks.map((a) => a.at)])) as [
      Array<{ campaignId: number }>,
      number,
    ];
    return rows[0].map((r) => r.campaignId);
  }

  async failByWaId(tx: EntityManager, companyId: number, waMessageId: string, reason: string) {
    const rows = (await tx.query(Q.FAIL_BY_WA_ID, [companyId, waMessageId, reason])) as [
      Array<{ campaignId: number; connectionId: number }>,
      number,
    ];
    return rows[0];
  }

  async confirm(tx: EntityManager, answers: Array<{ companyId: number; number: string }>) {
    if (answers.length === 0) return [];
    const rows = (await tx.query(Q.CONFIRM, [answers.map((a) => a.companyId), answers.map((a) => a.number)])) as [
      Array<{ campaignId: number; companyId: number }>,
      number,
    ];
    return rows[0];
  }

  async receivedCampaign(tx: EntityManager, companyId: number, numbers: string[]): Promise<boolean> {
    const rows = (await tx.query(Q.RECEIVED_CAMPAIGN, [companyId, numbers])) as Array<{ received: boolean }>;
    return rows[0]?.received ?? false;
  }

  async addOptOut(tx: EntityManager, companyId: number, number: string): Promise<boolean> {
    const rows = (await tx.query(Q.ADD_OPT_OUT, [companyId, number])) as unknown[];
    return rows.length > 0;
  }

  async skipNumber(tx: EntityManager, companyId: number, numbers: string[]): Promise<number[]> {
    const rows = (await tx.query(Q.SKIP_NUMBER, [companyId, numbers])) as [Array<{ campaignId: number }>, number];
    return rows[0].map((r) => r.campaignId);
  }

  /** Across companies: confirmations nobody answered within `hours`. */
  async expireConfirmations(hours: number): Promise<Array<{ campaignId: number; companyId: number }>> {
    const rows = (await this.db.query(Q.EXPIRE_CONFIRMATIONS, [hours])) as [Array<{ campaignId: number; companyId: number }>, number];
    return rows[0];
  }
}
