import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { PlanChangedEvent } from '@wa/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { PlanEntity } from '../database/entities/index.js';

/** Plan `id` with every flag on and no counts (billing's plan 1), unless auth's copy has it already. */
export async function insertFullPlan(tx: EntityManager, id: number): Promise<void> {
  await tx.query(`INSERT INTO auth.plans (id, name, "isPublic") VALUES ($1, 'Plano Completo', false) ON CONFLICT DO NOTHING`, [id]);
}

/** Auth's copy of billing's plans (`auth.plans`), kept by their events. */
@Injectable()
export class PlansRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  find(id: number, manager: EntityManager = this.db.manager): Promise<PlanEntity | null> {
    return manager.getRepository(PlanEntity).findOneBy({ id });
  }

  /** A plan offered at sign-up. */
  findPublic(id: number): Promise<PlanEntity | null> {
    return this.db.getRepository(PlanEntity).findOneBy({ id, isPublic: true });
  }

  /** These plans (`ids` not empty), in no order. */
  findMany(manager: EntityManager, ids: number[]): Promise<PlanEntity[]> {
    return manager.getRepository(PlanEntity).find({ where: ids.map((id) => ({ id })) });
  }

  /** The plan as billing has it at `at`, unless the copy already holds a later state (a replay, an old event). */
  async upsert(p: PlanChangedEvent['plan'], at: string): Promise<void> {
    await this.db.query(
      `INSERT INTO auth.plans (id, name, users, connections, queues, value, "useCampaigns", "useKanban", "useOpenAi", "useIntegrations", "useSchedules", "useInternalChat", "useExternalApi", "isPublic", "trialDays", "updatedAt")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
       ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, users = EXCLUDED.users, connections = EXCLUDED.connections, queues = EXCLUDED.queues,
         value = EXCLUDED.value, "useCampaigns" = EXCLUDED."useCampaigns", "useKanban" = EXCLUDED."useKanban", "useOpenAi" = EXCLUDED."useOpenAi",
         "useIntegrations" = EXCLUDED."useIntegrations", "useSchedules" = EXCLUDED."useSchedules", "useInternalChat" = EXCLUDED."useInternalChat",
         "useExternalApi" = EXCLUDED."useExternalApi", "isPublic" = EXCLUDED."isPublic", "trialDays" = EXCLUDED."trialDays", "updatedAt" = EXCLUDED."updatedAt"
       WHERE auth.plans."updatedAt" <= EXCLUDED."updatedAt"`,
      [
        p.id,
        p.name,
        p.users,
        p.connections,
        p.queues,
        p.value,
        p.useCampaigns,
        p.useKanban,
        p.useOpenAi,
        p.useIntegrations,
        p.useSchedules,
        p.useInternalChat,
        p.useExternalApi,
        p.isPublic,
        p.trialDays,
        at,
      ],
    );
  }

  /** Deletes a plan billing deleted at `at`, unless the copy changed later or a company still names it. */
  async deleteUnused(planId: number, at: string): Promise<void> {
    await this.db.query(
      `DELETE FROM auth.plans p WHERE p.id = $1 AND p."updatedAt" <= $2 AND NOT EXISTS (SELECT 1 FROM auth.companies c WHERE c."planId" = p.id)`,
      [planId, at],
    );
  }
}
