import { afterAll, describe, expect, it } from '@jest/globals';
import { Inject, Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { EventBus, EventBusModule } from '../src/index.js';
import { SERVERS, memLogger, uniq } from './helpers.js';

const CONFIG = 'TEST_CONFIG';

@Module({ providers: [{ provide: CONFIG, useValue: { natsUrl: SERVERS } }], exports: [CONFIG] })
class ConfigModule {}

@Injectable()
class Publisher {
  constructor(@Inject(EventBus) readonly bus: EventBus) {}
}

@Module({ providers: [Publisher], exports: [Publisher] })
class FeatureModule {}

describe('EventBusModule', () => {
  const u = uniq();

  afterAll(async () => {
    const cleanup = await EventBus.connect({ servers: SERVERS, name: 'test-nest-cleanup', streams: [], logger: memLogger() });
    const jsm = await cleanup.connection.jetstreamManager();
    await jsm.streams.delete(u.stream.name).catch(() => undefined);
    await cleanup.close();
  });

  it('provides a connected global EventBus and closes it on shutdown', async () => {
    const logger = memLogger();
    const moduleRef = await Test.createTestingModule({
      imports: [
        EventBusModule.forRootAsync({
          imports: [ConfigModule],
          inject: [CONFIG],
          useFactory: async (cfg: { natsUrl: string }) => ({ servers: cfg.natsUrl, name: 'test-nest', streams: [u.stream], logger }),
        }),
        FeatureModule,
      ],
    }).compile();
    const bus = moduleRef.get(EventBus);
    expect(bus).toBeInstanceOf(EventBus);
    expect(moduleRef.get(Publisher).bus).toBe(bus); // global: injectable without importing the module
    expect(await bus.ping()).toBeGreaterThanOrEqual(0);
    expect((await bus.publish(u.subj('nest.a'), { ok: true }, { msgId: `${u.sfx}-n` })).duplicate).toBe(false);
    await moduleRef.close();
    expect(bus.isClosed()).toBe(true);
  });
});
