export declare const root: string;
export declare const E2E_DEFAULTS: { portOffset: number; databaseUrl: string; redisUrl: string; natsPort: number };
export declare function urlsFor(portOffset: number): { webUrl: string; apiUrl: string; mailUrl: string };
export interface RunningProduct {
  webUrl: string;
  apiUrl: string;
  logFile: string;
  stop(): Promise<void>;
}
export declare function startProduct(options?: Partial<typeof E2E_DEFAULTS> & { startTimeoutMs?: number }): Promise<RunningProduct>;
