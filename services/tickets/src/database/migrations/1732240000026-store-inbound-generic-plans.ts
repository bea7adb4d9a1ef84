import type { MigrationInterface, QueryRunner } from 'typeorm';

const SIGNATURE = `tickets.store_inbound(int[], text[], text[], bool[], int[], text[], int[], int[], bool[], text[], text[], bool[], text[], timestamptz[], bigint[])`;

/**
 * `store_inbound` always runs its statements with their kept (generic) plans. With plan_cache_mode=auto
 * PostgreSQL still planned every one of them on every call (measured with pg_stat_statements: eight plans per
 * call, about 1 ms a batch), because a plan made for the batch's actual arrays always looks cheaper than
 * the generic one, which assumes a few rows more. Every statement here reaches its rows through a unique
 * index, and sequential scans stay priced out (enable_seqscan off), so the generic plan is the same one.
 */
export class StoreInboundGenericPlans1732240000026 implements MigrationInterface {
  name = 'StoreInboundGenericPlans1732240000026';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER FUNCTION ${SIGNATURE} SET plan_cache_mode = force_generic_plan`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER FUNCTION ${SIGNATURE} SET plan_cache_mode = auto`);
  }
}
