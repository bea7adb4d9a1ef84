import 'reflect-metadata';
import { createDataSource } from '@wa/database';
import { DatabaseEnv, loadConfigOrExit } from '@wa/server-kit';
import { IsInt, IsString, Min, MinLength } from 'class-validator';
import { ticketsDatabase } from './database/data-source.js';
import { QueueEntity } from './database/entities/index.js';
import { TicketSubjects, type QueueChangedEvent } from '@wa/contracts';
import { queueView } from './conversation/queues/queues.service.js';
import { ANNOUNCE_SEEDED_QUEUE, LOCK_SEED } from './seed.queries.js';

class SeedEnv extends DatabaseEnv {
  @IsInt()
  @Min(1)
  SEED_COMPANY_ID: number = 1;

  @IsString()
  @MinLength(2)
  SEED_QUEUE_NAME: string = 'Atendimento';
}

/** The demo company's first queue, when it has none; prints its id for the connection's seed. */
const env = loadConfigOrExit(SeedEnv, 'tickets-seed');
const ds = createDataSource(ticketsDatabase(env.DATABASE_URL, 2));
await ds.initialize();
try {
  const queue = await ds.transaction(async (tx) => {
    await tx.query(LOCK_SEED);
    const repo = tx.getRepository(QueueEntity);
    const existing = await repo.findOne({ where: { companyId: env.SEED_COMPANY_ID }, order: { id: 'ASC' } });
    // announced each time (a database seeded by an older version never told auth of it; a repeat changes nothing)
    const announce = async (q: QueueEntity) => {
      const view = queueView(q);
      const event: QueueChangedEvent = { companyId: q.companyId, queue: view };
      await tx.query(ANNOUNCE_SEEDED_QUEUE, [
        TicketSubjects.queueUpdated(q.companyId, q.id),
        `queue-updated:${q.id}:${view.updatedAt}`,
        JSON.stringify(event),
      ]);
    };
    if (existing) {
      await announce(existing);
      return { queue: existing, created: false };
    }
    const created = await repo.save(
      repo.create({
        companyId: env.SEED_COMPANY_ID,
        name: env.SEED_QUEUE_NAME,
        color: '#2e7d32',
        greetingMessage: 'Olá! Em que podemos ajudar?',
      }),
    );
    await announce(created);
    return { queue: created, created: true };
  });
  process.stdout.write(queue.created ? `tickets: seeded queue ${queue.queue.name}\n` : 'tickets: queues already seeded\n');
  process.stdout.write(`SEED_QUEUE_ID=${queue.queue.id}\n`);
} finally {
  await ds.destroy();
}
