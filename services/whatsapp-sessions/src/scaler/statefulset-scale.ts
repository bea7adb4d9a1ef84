import { AppsV1Api, KubeConfig, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';

/** The replica count of one StatefulSet, as the scaler reads and changes it. */
export interface ReplicaCount {
  /** the replicas asked for (the scale's spec.replicas) */
  replicas(): Promise<number>;
  scaleTo(replicas: number): Promise<void>;
}

/**
 * A StatefulSet's scale subresource (apps/v1 `statefulsets/{name}/scale`) through @kubernetes/client-node: all the
 * scaler's Role allows besides reading the StatefulSet. The patch is a JSON merge patch of `spec.replicas` only, so
 * it cannot touch anything else of the object; the client would otherwise send it as a JSON Patch (its first
 * content type), which the API server refuses for this body.
 */
export class StatefulSetScale implements ReplicaCount {
  private readonly api: AppsV1Api;

  constructor(
    config: KubeConfig,
    readonly namespace: string,
    readonly name: string,
  ) {
    this.api = config.makeApiClient(AppsV1Api);
  }

  /** In a pod: the cluster's API with the pod's service account; `server`: that address without credentials (`kubectl proxy`, a test's fake). */
  static connect(server: string, namespace: string, name: string): StatefulSetScale {
    const config = new KubeConfig();
    if (server) {
      config.loadFromOptions({
        clusters: [{ name: 'scaler', server, skipTLSVerify: server.startsWith('http:') }],
        users: [{ name: 'scaler' }],
        contexts: [{ name: 'scaler', cluster: 'scaler', user: 'scaler' }],
        currentContext: 'scaler',
      });
    } else {
      config.loadFromCluster();
    }
    return new StatefulSetScale(config, namespace, name);
  }

  async replicas(): Promise<number> {
    const scale = await this.api.readNamespacedStatefulSetScale({ name: this.name, namespace: this.namespace });
    return scale.spec?.replicas ?? 0;
  }

  async scaleTo(replicas: number): Promise<void> {
    await this.api.patchNamespacedStatefulSetScale(
      { name: this.name, namespace: this.namespace, body: { spec: { replicas } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
  }

  /** The StatefulSet as its controller reports it (read once at start: a wrong name or a missing Role shows at once). */
  async describe(): Promise<{ replicas: number; readyReplicas: number }> {
    const set = await this.api.readNamespacedStatefulSet({ name: this.name, namespace: this.namespace });
    return { replicas: set.spec?.replicas ?? 0, readyReplicas: set.status?.readyReplicas ?? 0 };
  }
}
