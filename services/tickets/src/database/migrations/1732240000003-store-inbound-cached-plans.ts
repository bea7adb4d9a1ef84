import type { MigrationInterface, QueryRunner } from 'typeorm';

const SIGNATURE = `tickets.store_inbound(int[], text[], text[], bool[], int[], text[], int[], int[], bool[], text[], text[], bool[], text[], timestamptz[], bigint[])`;

/**
 * `store_inbound` keeps its statements' plans across calls: small batches come hundreds of times a second,
 * and planning its eight statements every time cost PostgreSQL more than running them. Connections plan
 * every run otherwise (plan_cache_mode=force_custom_plan), because a plan cached while a table was small
 * keeps scanning it whole once it has grown; here every statement reaches its rows through a unique index,
 * and with sequential scans priced out a cached plan takes that index whatever the table's size was.
 */
export class StoreInboundCachedPlans1732240000003 implements MigrationInterface {
  name = 'StoreInboundCachedPlans1732240000003';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER FUNCTION ${SIGNATURE} SET plan_cache_mode = auto SET enable_seqscan = off`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER FUNCTION ${SIGNATURE} RESET ALL`);
  }
}
