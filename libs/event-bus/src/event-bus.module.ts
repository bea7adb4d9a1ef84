import { Global, Inject, Module } from '@nestjs/common';
import type { DynamicModule, InjectionToken, ModuleMetadata, OnApplicationShutdown, OptionalFactoryDependency } from '@nestjs/common';
import { EventBus } from './event-bus.js';
import type { BusOptions } from './types.js';

/** Token of the resolved BusOptions (rarely needed outside this module). */
export const EVENT_BUS_OPTIONS = Symbol('EVENT_BUS_OPTIONS');

export interface EventBusModuleAsyncOptions {
  imports?: ModuleMetadata['imports'];
  inject?: (InjectionToken | OptionalFactoryDependency)[];
  useFactory: (...args: any[]) => BusOptions | Promise<BusOptions>;
}

/**
 * Global module providing `EventBus` (the class is the token). The bus connects while the
 * application boots and is closed (consumers stopped, connection drained) on shutdown.
 */
@Global()
@Module({})
export class EventBusModule implements OnApplicationShutdown {
  constructor(@Inject(EventBus) private readonly bus: EventBus) {}

  static forRootAsync(options: EventBusModuleAsyncOptions): DynamicModule {
    return {
      module: EventBusModule,
      global: true,
      imports: options.imports ?? [],
      providers: [
        { provide: EVENT_BUS_OPTIONS, useFactory: options.useFactory, inject: options.inject ?? [] },
        { provide: EventBus, useFactory: (opts: BusOptions) => EventBus.connect(opts), inject: [EVENT_BUS_OPTIONS] },
      ],
      exports: [EventBus],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.bus.close();
  }
}
