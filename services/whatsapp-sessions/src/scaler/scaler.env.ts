import { IsInt, IsNotEmpty, IsString, Matches, Max, Min } from 'class-validator';
import { BaseEnv } from '@wa/server-kit';

/**
 * The sessions scaler's settings (scaler-main.ts): it reads the replicas' registry in Redis and the StatefulSet's
 * scale in Kubernetes, nothing else (no database, no NATS, no tokens).
 */
export class ScalerEnv extends BaseEnv {
  /**
   * Its /health/live (no Service points at it: only the kubelet asks); clear of the ports `SESSIONS_REPLICAS=N npm
   * start` gives the replicas (3103, 3113 … 3183).
   */
  override PORT: number = 3190;

  @Matches(/^rediss?:\/\/.+/, { message: 'REDIS_URL must be a redis:// URL' })
  REDIS_URL: string = 'redis://127.0.0.1:6379/0';

  /**
   * The Kubernetes API server; empty: the cluster's own, with the pod's service account (in a pod). Another address
   * only outside a cluster, e.g. `kubectl proxy`'s `http://127.0.0.1:8001` (plain HTTP, no credentials).
   */
  @Matches(/^$|^https?:\/\/\S+$/, { message: 'SCALER_KUBE_API must be empty or an http(s):// address' })
  SCALER_KUBE_API: string = '';

  /** The namespace of the StatefulSet (in the manifests: the scaler's own, from the downward API). */
  @IsString()
  @IsNotEmpty()
  SCALER_NAMESPACE: string = 'conversa';

  /** The StatefulSet of whatsapp-sessions; its pods, and so the replicas' names, are `<name>-0`, `<name>-1`… */
  @IsString()
  @IsNotEmpty()
  SCALER_STATEFULSET: string = 'whatsapp-sessions';

  /** How often the scaler looks at the demand and the replicas. */
  @IsInt()
  @Min(1000)
  SCALER_INTERVAL_MS: number = 10_000;

  /** Sessions a replica should hold, on average: desired replicas = the sessions that should run over this. */
  @IsInt()
  @Min(1)
  SCALER_SESSIONS_PER_REPLICA: number = 200;

  @IsInt()
  @Min(1)
  SCALER_MIN_REPLICAS: number = 2;

  @IsInt()
  @Min(1)
  @Max(1000)
  SCALER_MAX_REPLICAS: number = 10;

  /**
   * No change of the replica count within this time after the last one (a new replica needs a while to start and
   * take its share; a removed one to be gone): the count does not swing with short peaks.
   */
  @IsInt()
  @Min(0)
  SCALER_COOLDOWN_MS: number = 120_000;

  /** A replica not heard of within this time is gone (the replicas' own REPLICA_TTL_MS). */
  @IsInt()
  @Min(500)
  REPLICA_TTL_MS: number = 10_000;
}
