// Keeps the deployment material honest: parses deploy/Dockerfile, deploy/docker-compose.yml
// and every manifest of k8s/base from disk and checks the properties the platform relies on
// (ports, probes, resources, secrets, wiring between services). No Docker or cluster needed.
import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, parseAllDocuments } from 'yaml';

// ---------------------------------------------------------------------------------------------
// The platform, as the manifests must describe it.

const SERVICES: Record<string, number> = {
  auth: 3101,
  tickets: 3102,
  'whatsapp-sessions': 3103,
  campaigns: 3104,
  billing: 3105,
  'realtime-gateway': 3106,
  'messaging-gateway': 8080,
};
const SERVICE_NAMES = Object.keys(SERVICES);
/** sizes the whatsapp-sessions StatefulSet (k8s/base/whatsapp-sessions-scaler.yaml) */
const SCALER = 'whatsapp-sessions-scaler';
/** the services with tables of their own (a schema each, migrated by services/<name>/dist/migrate.js) */
const MIGRATING = ['auth', 'tickets', 'whatsapp-sessions', 'campaigns', 'billing'];
const WEB = { name: 'web', port: 3000 };
const GATEWAY_UPSTREAMS: Record<string, string> = {
  AUTH_URL: 'auth',
  TICKETS_URL: 'tickets',
  WHATSAPP_SESSIONS_URL: 'whatsapp-sessions',
  CAMPAIGNS_URL: 'campaigns',
  BILLING_URL: 'billing',
  REALTIME_URL: 'realtime-gateway',
};
const SECRET_NAME = 'conversa-secrets';
const NATS_SECRET = 'conversa-nats';
const natsPasswordKey = (user: string) => `NATS_PASSWORD_${user.toUpperCase().replace(/-/g, '_')}`;
const SECRET_KEYS = ['DATABASE_URL', 'JWT_SECRET'];
/** The key of the Secret (and the variable of deploy/.env) holding the URL a service runs with: its own role. */
const databaseUrlKey = (service: string) => `DATABASE_URL_${service.toUpperCase().replace(/-/g, '_')}`;
/** The services that read and write media files: they share one store. */
const MEDIA = ['auth', 'tickets', 'whatsapp-sessions'];
const NAMESPACE = 'conversa';
const PART_OF = { 'app.kubernetes.io/part-of': 'conversa' };

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const DEPLOY = join(ROOT, 'deploy');
const K8S_BASE = join(ROOT, 'k8s', 'base');
/** How every service's node runs (scripts/lib/service-runtime.mjs): the image's options and a service's own. */
const serviceRuntime = () =>
  import(join(ROOT, 'scripts/lib/service-runtime.mjs')) as Promise<{
    SERVICE_NODE_OPTIONS: string;
    SERVICE_NODE_OPTIONS_OF: Record<string, string>;
  }>;
const NATS_CONF = join(K8S_BASE, 'nats.conf');

/** The users of nats.conf and the environment variable holding each one's password. */
function natsUsers(): Record<string, string> {
  const users: Record<string, string> = {};
  for (const m of read(NATS_CONF).matchAll(/user:\s*([\w-]+)\s*\n\s*password:\s*\$(\w+)/g)) users[m[1]] = m[2];
  return users;
}

// ---------------------------------------------------------------------------------------------
// Helpers.

/**
 * The packages `npm install --omit=dev --workspace <ws>` puts in an image, by package-lock.json: the
 * workspace's dependencies, those of the workspace packages it depends on, and theirs, transitively
 * (peer dependencies too; optional peers only when something else brings them).
 */
function productionClosure(workspace: string): Set<string> {
  const lock = JSON.parse(read(join(ROOT, 'package-lock.json'))).packages as Record<string, Obj>;
  const workspaceOf = new Map<string, string>();
  for (const [path, entry] of Object.entries(lock)) {
    if (entry.link && entry.resolved) workspaceOf.set(path.replace(/^node_modules\//, ''), entry.resolved);
  }
  const seen = new Set<string>();
  const visit = (location: string) => {
    const entry = lock[location];
    if (!entry) return;
    const deps = { ...entry.dependencies, ...entry.optionalDependencies };
    for (const [name, _] of Object.entries(entry.peerDependencies ?? {})) if (!entry.peerDependenciesMeta?.[name]?.optional) deps[name] = _;
    for (const name of Object.keys(deps)) {
      const ws = workspaceOf.get(name);
      if (ws) {
        if (!seen.has(`ws:${ws}`)) {
          seen.add(`ws:${ws}`);
          visit(ws);
        }
        continue;
      }
      // npm's resolution: the nearest node_modules up from the dependent
      let dir = location;
      let found: string | undefined;
      for (;;) {
        const candidate = `${dir ? `${dir}/` : ''}node_modules/${name}`;
        if (lock[candidate]) {
          found = candidate;
          break;
        }
        if (!dir) break;
        const cut = dir.lastIndexOf('/node_modules/');
        dir = cut >= 0 ? dir.slice(0, cut) : dir.startsWith('node_modules/') ? '' : '';
      }
      if (!found || seen.has(found)) continue;
      seen.add(found);
      visit(found);
    }
  };
  visit(workspace);
  return new Set(
    [...seen].filter((s) => !s.startsWith('ws:')).map((s) => s.slice(s.lastIndexOf('node_modules/') + 'node_modules/'.length)),
  );
}

type Obj = Record<string, any>;
interface K8sObject extends Obj {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  __file: string;
}

const read = (path: string): string => readFileSync(path, 'utf8');

/**
 * Runs a loader at collection time without crashing the whole suite: on error the value is
 * `fallback` and a dedicated test rethrows the error, so a broken file shows as a failed test.
 */
function attempt<T>(load: () => T, fallback: T): { value: T; error?: unknown } {
  try {
    return { value: load() };
  } catch (error) {
    return { value: fallback, error };
  }
}

/** Parses every YAML document of a file, failing on any syntax error or warning. */
function parseYamlFile(path: string): Obj[] {
  const docs = parseAllDocuments(read(path), { merge: true });
  const problems = docs.flatMap((d) => [...d.errors, ...d.warnings].map((e) => `${path}: ${e.message}`));
  if (problems.length > 0) throw new Error(problems.join('\n'));
  return docs.map((d) => d.toJS({ maxAliasCount: -1 }) as Obj).filter((d) => d != null);
}

function isSubset(sub: Record<string, string> | undefined, of: Record<string, string> | undefined): boolean {
  if (!sub || Object.keys(sub).length === 0) return false;
  return Object.entries(sub).every(([k, v]) => of?.[k] === v);
}

function podSpec(workload: Obj): Obj {
  return workload.spec.template.spec;
}

function containers(workload: Obj): Obj[] {
  return podSpec(workload).containers ?? [];
}

/** Resolves a port given by number or by the name of a container port. */
function containerPortNumber(container: Obj, port: number | string): number | undefined {
  if (typeof port === 'number') return port;
  if (/^\d+$/.test(port)) return Number(port);
  return (container.ports ?? []).find((p: Obj) => p.name === port)?.containerPort;
}

function argValue(args: string[], flag: string): string | undefined {
  const i = args.indexOf(flag);
  return i >= 0 ? args[i + 1] : undefined;
}

/**
 * The largest file the services take (MEDIA_UPLOAD_MAX_BYTES of libs/server-kit: the largest of MEDIA_MAX_BYTES),
 * read from its source (this project imports no lib).
 */
function mediaUploadMaxBytes(): number {
  const source = read(join(ROOT, 'libs', 'server-kit', 'src', 'storage', 'media-files.ts'));
  const table = /export const MEDIA_MAX_BYTES[^=]*=\s*\{([^}]+)\}/.exec(source)?.[1] ?? '';
  const sizes = [...table.matchAll(/\w+:\s*([\d\s*]+),/g)].map((m) =>
    m[1].split('*').reduce((product, n) => product * Number(n.trim()), 1),
  );
  if (sizes.length === 0 || !/MEDIA_UPLOAD_MAX_BYTES = Math\.max\(\.\.\.Object\.values\(MEDIA_MAX_BYTES\)\)/.test(source))
    throw new Error('MEDIA_MAX_BYTES not found in media-files.ts');
  return Math.max(...sizes);
}

// ---------------------------------------------------------------------------------------------
// Kubernetes.

const kustomizationLoad = attempt(() => parse(read(join(K8S_BASE, 'kustomization.yaml'))) as Obj, {} as Obj);
const kustomization = kustomizationLoad.value ?? {};
const resourceFiles: string[] = kustomization.resources ?? [];

/** Every object of the base. A missing or broken file is skipped here: the kustomization tests report it. */
function loadK8s(): K8sObject[] {
  return resourceFiles.flatMap((file) => {
    try {
      return parseYamlFile(join(K8S_BASE, file)).map((doc) => ({ ...doc, __file: file }) as K8sObject);
    } catch {
      return [];
    }
  });
}

const byKind = (objects: K8sObject[], kind: string) => objects.filter((o) => o.kind === kind);
const find = (objects: K8sObject[], kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata?.name === name);
const workloadOf = (objects: K8sObject[], name: string) => find(objects, 'Deployment', name) ?? find(objects, 'StatefulSet', name);

describe('k8s/base kustomization', () => {
  it('parses', () => {
    if (kustomizationLoad.error) throw kustomizationLoad.error;
    expect(kustomization.kind).toBe('Kustomization');
  });

  it('targets the conversa namespace and labels everything part-of conversa', () => {
    expect(kustomization.namespace).toBe(NAMESPACE);
    const common = {
      ...(kustomization.commonLabels ?? {}),
      ...Object.assign({}, ...(kustomization.labels ?? []).map((l: Obj) => l.pairs ?? {})),
    };
    expect(common).toMatchObject(PART_OF);
  });

  it('lists resources that all exist as files and parse without error', () => {
    expect(resourceFiles.length).toBeGreaterThan(0);
    for (const file of resourceFiles) {
      const path = join(K8S_BASE, file);
      expect(existsSync(path) && statSync(path).isFile()).toBe(true);
      const docs = parseYamlFile(path);
      expect(docs.length).toBeGreaterThan(0);
      for (const doc of docs) {
        expect(typeof doc.apiVersion).toBe('string');
        expect(typeof doc.kind).toBe('string');
        expect(typeof doc.metadata?.name).toBe('string');
      }
    }
  });

  it('lists every manifest of the folder except the example Secret', () => {
    const onDisk = readdirSync(K8S_BASE).filter((f) => /\.ya?ml$/.test(f) && f !== 'kustomization.yaml');
    const expected = onDisk.filter((f) => f !== 'secrets.example.yaml').sort();
    expect([...resourceFiles].sort()).toEqual(expected);
    expect(resourceFiles).not.toContain('secrets.example.yaml');
  });

  it('declares the namespace and has no duplicate objects', () => {
    const objects = loadK8s();
    expect(find(objects, 'Namespace', NAMESPACE)).toBeDefined();
    const keys = objects.map((o) => `${o.kind}/${o.metadata.name}`);
    expect(keys.length).toBe(new Set(keys).size);
  });

  const kubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' });
  (kubectl.status === 0 ? it : it.skip)('renders with `kubectl kustomize` (when kubectl is installed)', () => {
    const out = spawnSync('kubectl', ['kustomize', K8S_BASE], { encoding: 'utf8' });
    expect(out.stderr).toBe('');
    expect(out.status).toBe(0);
  });
});

describe.each([...SERVICE_NAMES.map((name) => ({ name, port: SERVICES[name], web: false })), { ...WEB, web: true }])(
  'k8s workload $name',
  ({ name, port, web }) => {
    const objects = loadK8s();
    const workload = workloadOf(objects, name);
    const pods = () => workload!.spec.template;
    const main = () => containers(workload!)[0];

    it('has a Deployment (or StatefulSet) whose selector matches its pod labels', () => {
      expect(workload).toBeDefined();
      expect(isSubset(workload!.spec.selector?.matchLabels, pods().metadata?.labels)).toBe(true);
    });

    it(`exposes container port ${port} and a Service targeting it`, () => {
      const c = main();
      expect((c.ports ?? []).map((p: Obj) => p.containerPort)).toContain(port);
      const service = find(objects, 'Service', name);
      expect(service).toBeDefined();
      expect(isSubset(service!.spec.selector, pods().metadata?.labels)).toBe(true);
      // The selector picks this workload's pods and no other's.
      const selected = [...byKind(objects, 'Deployment'), ...byKind(objects, 'StatefulSet')].filter((w) =>
        isSubset(service!.spec.selector, w.spec.template.metadata?.labels),
      );
      expect(selected.map((w) => w.metadata.name)).toEqual([name]);
      const servicePort = (service!.spec.ports ?? []).find((p: Obj) => p.port === port);
      expect(servicePort).toBeDefined();
      expect(containerPortNumber(c, servicePort.targetPort ?? servicePort.port)).toBe(port);
    });

    it('sets an image', () => {
      for (const c of containers(workload!)) {
        expect(typeof c.image).toBe('string');
        expect(c.image).toMatch(/^\S+(:[\w.-]+|@sha256:[a-f0-9]{64})$/);
      }
      expect(main().image).toContain(name);
    });

    it(`probes readiness on ${web ? '/' : '/health/ready'} and liveness on ${web ? '/' : '/health/live'} at the container port`, () => {
      const paths: Record<string, string> = web
        ? { readinessProbe: '/', livenessProbe: '/' }
        : { readinessProbe: '/health/ready', livenessProbe: '/health/live', startupProbe: '/health/live' };
      for (const c of containers(workload!)) {
        for (const [probe, path] of Object.entries(paths)) {
          const httpGet = c[probe]?.httpGet;
          expect({ probe, path: httpGet?.path }).toEqual({ probe, path });
          expect(containerPortNumber(c, httpGet.port)).toBe(port);
        }
      }
    });

    it('requests and limits cpu and memory', () => {
      for (const c of containers(workload!)) {
        for (const kind of ['requests', 'limits']) {
          for (const resource of ['cpu', 'memory']) {
            expect({ kind, resource, value: c.resources?.[kind]?.[resource] }).toEqual({
              kind,
              resource,
              value: expect.anything(),
            });
          }
        }
      }
    });

    it('runs as a non-root user', () => {
      const c = main();
      const runAsNonRoot = c.securityContext?.runAsNonRoot ?? podSpec(workload!).securityContext?.runAsNonRoot;
      const runAsUser = c.securityContext?.runAsUser ?? podSpec(workload!).securityContext?.runAsUser;
      expect(runAsNonRoot).toBe(true);
      // A numeric uid: the kubelet cannot check runAsNonRoot against the image's `USER node`.
      expect(runAsUser).toBeGreaterThan(0);
    });

    if (web) return;

    it('reads a ConfigMap through envFrom with the non-secret settings', () => {
      const refs = (main().envFrom ?? []).map((e: Obj) => e.configMapRef?.name).filter(Boolean);
      expect(refs.length).toBeGreaterThan(0);
      for (const ref of refs) expect(find(objects, 'ConfigMap', ref)).toBeDefined();
      const data = Object.assign({}, ...refs.map((ref: string) => find(objects, 'ConfigMap', ref)!.data));
      expect(data.PORT).toBe(String(port));
      expect(data.HOST).toBe('0.0.0.0');
      expect(data.NODE_ENV).toBe('production');
      expect(data.NATS_URL).toBe('nats://nats:4222');
      for (const key of [...SECRET_KEYS, 'REDIS_URL']) expect(Object.keys(data)).not.toContain(key);
      // it believes X-Forwarded-For from the pod network only (the ingress' pods for the gateway, the
      // gateway's for the services): never the default, loopback, which makes every client one address
      expect(data.TRUSTED_PROXIES).toBe('uniquelocal');
    });

    it('connects to NATS as its own user, the password from the Secret conversa-nats', () => {
      const refs = (main().envFrom ?? []).map((e: Obj) => e.configMapRef?.name).filter(Boolean);
      const data = Object.assign({}, ...refs.map((ref: string) => find(objects, 'ConfigMap', ref)!.data));
      expect(data.NATS_USER).toBe(name);
      expect(natsUsers()[name]).toBe(natsPasswordKey(name));
      const password = (main().env ?? []).find((e: Obj) => e.name === 'NATS_PASSWORD');
      expect(password?.valueFrom?.secretKeyRef).toEqual({ name: NATS_SECRET, key: natsPasswordKey(name) });
      // no other service's password reaches this pod
      expect((main().env ?? []).filter((e: Obj) => e.valueFrom?.secretKeyRef?.name === NATS_SECRET)).toHaveLength(1);
    });

    it(`takes JWT_SECRET from the Secret ${SECRET_NAME}, and ${MIGRATING.includes(name) ? 'DATABASE_URL as its own role' : 'no DATABASE_URL (it has no tables)'}`, () => {
      const env = main().env ?? [];
      const jwt = env.find((e: Obj) => e.name === 'JWT_SECRET');
      expect(jwt?.valueFrom?.secretKeyRef).toEqual({ name: SECRET_NAME, key: 'JWT_SECRET' });
      const db = env.find((e: Obj) => e.name === 'DATABASE_URL');
      expect(db?.valueFrom?.secretKeyRef).toEqual(MIGRATING.includes(name) ? { name: SECRET_NAME, key: databaseUrlKey(name) } : undefined);
      // the schemas' owner never reaches a running service
      expect(env.filter((e: Obj) => e.valueFrom?.secretKeyRef?.key === 'DATABASE_URL')).toEqual([]);
      // Redis is a managed service too: its URL comes from the ConfigMap or the Secret.
      const redis = env.find((e: Obj) => e.name === 'REDIS_URL');
      expect(redis?.valueFrom?.secretKeyRef?.name).toBe(SECRET_NAME);
    });

    it(
      MIGRATING.includes(name) ? 'migrates its own schema in an init container with its own image' : 'has no tables, so no migration',
      () => {
        const init = podSpec(workload!).initContainers ?? [];
        if (!MIGRATING.includes(name)) return expect(init).toEqual([]);
        expect(init).toHaveLength(1);
        const [migrate] = init;
        expect(migrate.image).toBe(main().image);
        expect(migrate.command).toEqual(['node', `services/${name}/dist/migrate.js`]);
        expect(migrate.envFrom).toEqual(main().envFrom);
        // as the schemas' owner, making the role the service runs as
        expect(migrate.env.find((e: Obj) => e.name === 'DATABASE_URL')?.valueFrom?.secretKeyRef).toEqual({
          name: SECRET_NAME,
          key: 'DATABASE_URL',
        });
        expect(migrate.env.find((e: Obj) => e.name === 'SERVICE_DATABASE_URL')?.valueFrom?.secretKeyRef).toEqual({
          name: SECRET_NAME,
          key: databaseUrlKey(name),
        });
        expect(migrate.resources?.limits?.memory).toBeDefined();
        expect(migrate.securityContext?.readOnlyRootFilesystem).toBe(true);
      },
    );

    if (workload?.kind === 'StatefulSet') {
      it('has a headless governing Service', () => {
        const governing = find(objects, 'Service', workload.spec.serviceName);
        expect(governing?.spec.clusterIP).toBe('None');
      });
    }
  },
);

describe('k8s wiring', () => {
  const objects = loadK8s();

  it('points the messaging-gateway at every upstream Service and port', () => {
    const gateway = workloadOf(objects, 'messaging-gateway')!;
    const refs = containers(gateway)[0].envFrom.map((e: Obj) => e.configMapRef?.name);
    const data = Object.assign({}, ...refs.map((ref: string) => find(objects, 'ConfigMap', ref)?.data));
    for (const [key, service] of Object.entries(GATEWAY_UPSTREAMS)) {
      expect({ key, url: data[key] }).toEqual({ key, url: `http://${service}:${SERVICES[service]}` });
      const svc = find(objects, 'Service', service);
      expect(svc?.spec.ports.map((p: Obj) => p.port)).toContain(SERVICES[service]);
    }
    expect(data.WEB_ORIGIN).toMatch(/^https?:\/\/\S+$/);
  });

  it('tells the console where the API is: the web pod renders /config.js from PUBLIC_API_URL, the ingress API host', () => {
    const web = workloadOf(objects, 'web');
    const [c] = containers(web!);
    const url = (c.env ?? []).find((e: Obj) => e.name === 'PUBLIC_API_URL')?.value;
    const [ingress] = byKind(objects, 'Ingress');
    const apiHost = ingress.spec.rules.find((r: Obj) =>
      r.http.paths.some((p: Obj) => p.backend.service.name === 'messaging-gateway'),
    )?.host;
    expect(url).toBe(`https://${apiHost}`);
    // the root filesystem is read-only: the template is rendered into a volume
    const mount = (c.volumeMounts ?? []).find((m: Obj) => m.mountPath === '/etc/nginx/conf.d');
    expect(podSpec(web!).volumes.find((v: Obj) => v.name === mount?.name)?.emptyDir).toBeDefined();
  });

  it('gives auth, and no other service, the key that encrypts the secret company settings', () => {
    for (const name of SERVICE_NAMES) {
      const ref = (containers(workloadOf(objects, name)!)[0].env ?? []).find((e: Obj) => e.name === 'AUTH_SECRETS_KEY')?.valueFrom
        ?.secretKeyRef;
      expect({ name, ref }).toEqual({ name, ref: name === 'auth' ? { name: SECRET_NAME, key: 'AUTH_SECRETS_KEY' } : undefined });
    }
  });

  it('gives tickets, and no other service, the key that encrypts its stored secrets (prompts, integrations)', () => {
    for (const name of SERVICE_NAMES) {
      const ref = (containers(workloadOf(objects, name)!)[0].env ?? []).find((e: Obj) => e.name === 'TICKETS_SECRETS_KEY')?.valueFrom
        ?.secretKeyRef;
      expect({ name, ref }).toEqual({ name, ref: name === 'tickets' ? { name: SECRET_NAME, key: 'TICKETS_SECRETS_KEY' } : undefined });
    }
  });

  it('gives whatsapp-sessions, and no other service, the key that encrypts connection tokens', () => {
    for (const name of SERVICE_NAMES) {
      const ref = (containers(workloadOf(objects, name)!)[0].env ?? []).find((e: Obj) => e.name === 'CONNECTION_TOKEN_KEY')?.valueFrom
        ?.secretKeyRef;
      expect({ name, ref }).toEqual({
        name,
        ref: name === 'whatsapp-sessions' ? { name: SECRET_NAME, key: 'CONNECTION_TOKEN_KEY' } : undefined,
      });
    }
  });

  it("runs each service's node with its own options where it has them, else the image's (scripts/lib/service-runtime.mjs)", async () => {
    const { SERVICE_NODE_OPTIONS_OF } = await serviceRuntime();
    for (const name of SERVICE_NAMES) {
      const data = find(objects, 'ConfigMap', `${name}-config`)?.data ?? {};
      expect({ name, NODE_OPTIONS: data.NODE_OPTIONS }).toEqual({ name, NODE_OPTIONS: SERVICE_NODE_OPTIONS_OF[name] });
    }
    expect(Object.keys(SERVICE_NODE_OPTIONS_OF).every((name) => SERVICE_NAMES.includes(name))).toBe(true);
  });

  it('runs production settings: secure refresh cookie (auth), real phones by default (whatsapp-sessions)', () => {
    const data = (name: string) => find(objects, 'ConfigMap', `${name}-config`)?.data ?? {};
    expect(data('auth').COOKIE_SECURE).toBe('true');
    expect(data('whatsapp-sessions').DEFAULT_CHANNEL).toBe('baileys');
  });

  it('has every secretKeyRef key in the example Secrets (not part of the base)', () => {
    const examples = parseYamlFile(join(K8S_BASE, 'secrets.example.yaml'));
    expect(examples.map((e) => `${e.kind}/${e.metadata.name}`)).toEqual([`Secret/${SECRET_NAME}`, `Secret/${NATS_SECRET}`]);
    const keysOf = (name: string) => {
      const secret = examples.find((e) => e.metadata.name === name)!;
      return Object.keys({ ...(secret.stringData ?? {}), ...(secret.data ?? {}) });
    };
    const secret = examples[0];
    const keys = keysOf(SECRET_NAME);
    const referenced = new Set<string>();
    for (const w of [...byKind(objects, 'Deployment'), ...byKind(objects, 'StatefulSet')]) {
      for (const c of containers(w)) {
        for (const e of c.env ?? []) {
          const ref = e.valueFrom?.secretKeyRef;
          if (!ref) continue;
          expect([SECRET_NAME, NATS_SECRET]).toContain(ref.name);
          if (ref.name === SECRET_NAME) referenced.add(ref.key);
          else expect(keysOf(NATS_SECRET)).toContain(ref.key);
        }
      }
    }
    expect(referenced.size).toBeGreaterThan(0);
    for (const key of referenced) expect(keys).toContain(key);
    expect(find(objects, 'Secret', SECRET_NAME)).toBeUndefined();
    expect(find(objects, 'Secret', NATS_SECRET)).toBeUndefined();
    // every NATS user has its password in the example, a placeholder a production service refuses
    expect(keysOf(NATS_SECRET).sort()).toEqual(Object.values(natsUsers()).sort());
    for (const value of Object.values(examples[1].stringData)) expect(String(value)).toMatch(/change-me/i);
    // nothing asks for a secret no code reads
    expect([...referenced, ...keys]).not.toContain('JWT_REFRESH_SECRET');
    expect(String(secret.stringData?.JWT_SECRET)).toMatch(/change-me/i); // refused by a production service
  });

  it('routes app.example.com to web and api.example.com to messaging-gateway', () => {
    const [ingress] = byKind(objects, 'Ingress');
    expect(ingress).toBeDefined();
    const backends: Record<string, Obj> = {};
    for (const rule of ingress.spec.rules) {
      const root = rule.http.paths.find((p: Obj) => p.path === '/');
      backends[rule.host] = root?.backend?.service;
    }
    expect(backends['app.example.com']?.name).toBe('web');
    expect(backends['api.example.com']?.name).toBe('messaging-gateway');
    for (const backend of Object.values(backends)) {
      const svc = find(objects, 'Service', backend.name);
      expect(svc).toBeDefined();
      const ports = svc!.spec.ports.map((p: Obj) => (backend.port.name ? p.name : p.port));
      expect(ports).toContain(backend.port.name ?? backend.port.number);
    }
  });

  it("admits at the ingress the uploads the services take, the same figure as the gateway's UPLOAD_BODY_LIMIT", () => {
    const MEDIA_UPLOAD_MAX_BYTES = mediaUploadMaxBytes();
    const [ingress] = byKind(objects, 'Ingress');
    const annotations = ingress.metadata.annotations ?? {};
    const size = /^(\d+)([kmg]?)$/i.exec(String(annotations['nginx.ingress.kubernetes.io/proxy-body-size']));
    expect(size).not.toBeNull();
    const bytes = Number(size![1]) * 1024 ** ' kmg'.indexOf(size![2].toLowerCase() || ' ');
    // a file of the largest size and its multipart envelope (a few hundred bytes; 64 KiB is plenty)
    expect(bytes).toBeGreaterThanOrEqual(MEDIA_UPLOAD_MAX_BYTES + 64 * 1024);
    const limit = /^(\d+)(kb|mb)$/i.exec(find(objects, 'ConfigMap', 'messaging-gateway-config')!.data.UPLOAD_BODY_LIMIT ?? '');
    expect(limit).not.toBeNull();
    expect(Number(limit![1]) * 1024 ** (limit![2].toLowerCase() === 'mb' ? 2 : 1)).toBe(bytes);
    // streamed to the gateway, which counts it as it comes
    expect(annotations['nginx.ingress.kubernetes.io/proxy-request-buffering']).toBe('off');
  });

  it('keeps the media files of auth, tickets and whatsapp-sessions in one S3-compatible bucket (the root filesystem is read-only)', () => {
    const settings = MEDIA.map((name) => {
      const data = find(objects, 'ConfigMap', `${name}-config`)!.data;
      return Object.fromEntries(Object.entries(data).filter(([k]) => k.startsWith('MEDIA_')));
    });
    expect(settings[0].MEDIA_STORAGE).toBe('s3');
    expect(settings[0].MEDIA_S3_BUCKET).toMatch(/\S/);
    for (const s of settings) expect(s).toEqual(settings[0]);
    for (const name of MEDIA) {
      const env = containers(workloadOf(objects, name)!)[0].env ?? [];
      for (const key of ['MEDIA_S3_ACCESS_KEY_ID', 'MEDIA_S3_SECRET_ACCESS_KEY']) {
        expect({ name, key, ref: env.find((e: Obj) => e.name === key)?.valueFrom?.secretKeyRef }).toEqual({
          name,
          key,
          ref: { name: SECRET_NAME, key, optional: true },
        });
      }
    }
  });

  it("gives each service with tables a role of its own in the example Secret, on the owner's database", () => {
    const example = parseYamlFile(join(K8S_BASE, 'secrets.example.yaml'))[0].stringData;
    const owner = new URL(example.DATABASE_URL);
    const users = MIGRATING.map((name) => {
      const url = new URL(example[databaseUrlKey(name)]);
      expect({ name, host: url.host, db: url.pathname }).toEqual({ name, host: owner.host, db: owner.pathname });
      expect(url.username).toMatch(/^[a-z_][a-z0-9_]*$/);
      expect(decodeURIComponent(url.password).length).toBeGreaterThanOrEqual(16);
      return url.username;
    });
    expect(new Set([...users, owner.username]).size).toBe(MIGRATING.length + 1);
  });

  it('names in k8s/README.md every key of conversa-secrets the pods need, in its table and in both create commands', () => {
    const readme = read(join(ROOT, 'k8s', 'README.md'));
    const required = new Set<string>();
    for (const w of [...byKind(objects, 'Deployment'), ...byKind(objects, 'StatefulSet')]) {
      for (const c of [...containers(w), ...(podSpec(w).initContainers ?? [])]) {
        for (const e of c.env ?? []) {
          const ref = e.valueFrom?.secretKeyRef;
          if (ref?.name === SECRET_NAME && !ref.optional) required.add(ref.key);
        }
      }
    }
    expect(required).toContain('SMTP_URL');
    const commands = [...readme.matchAll(/create secret generic conversa-secrets([\s\S]*?)\n(?!\s)/g)].map((m) => m[1]);
    expect(commands).toHaveLength(2);
    for (const key of required) {
      expect({ key, inTable: new RegExp(`^\\| \`${key}\` \\|`, 'm').test(readme) }).toEqual({ key, inTable: true });
      for (const [i, command] of commands.entries())
        expect({ key, command: i, given: command.includes(`--from-literal=${key}=`) }).toEqual({ key, command: i, given: true });
    }
  });

  it('is all in one namespace (set by kustomize, not hard-coded elsewhere)', () => {
    for (const o of objects) {
      if (o.kind === 'Namespace') continue;
      expect([undefined, NAMESPACE]).toContain(o.metadata.namespace);
    }
  });
});

describe('k8s/jobs/first-super-user.yaml', () => {
  const [job] = parseYamlFile(join(ROOT, 'k8s', 'jobs', 'first-super-user.yaml')) as K8sObject[];
  const objects = loadK8s();

  it('is a Job outside the base (run once, by hand) with the auth image, its ConfigMap and a Secret of its own', () => {
    expect(job.kind).toBe('Job');
    expect(job.metadata.namespace).toBe(NAMESPACE);
    const kustomization = parse(read(join(K8S_BASE, 'kustomization.yaml')));
    expect(JSON.stringify(kustomization.resources)).not.toContain('first-super-user');
    const [c] = job.spec.template.spec.containers;
    expect(job.spec.template.spec.restartPolicy).toBe('Never');
    expect(c.image).toBe(containers(workloadOf(objects, 'auth')!)[0].image);
    expect(c.command).toEqual(['node', 'services/auth/dist/seed-super-user.js']);
    expect(c.envFrom).toEqual([{ configMapRef: { name: 'auth-config' } }, { secretRef: { name: 'conversa-first-super-user' } }]);
    expect(c.env.find((e: Obj) => e.name === 'DATABASE_URL')?.valueFrom?.secretKeyRef).toEqual({ name: SECRET_NAME, key: 'DATABASE_URL' });
    expect(job.spec.template.spec.securityContext.runAsNonRoot).toBe(true);
  });
});

describe('k8s NATS', () => {
  const objects = loadK8s();
  const nats = find(objects, 'StatefulSet', 'nats');

  it('is a StatefulSet running JetStream with file storage on a volumeClaimTemplate', () => {
    expect(nats).toBeDefined();
    const c = containers(nats!)[0];
    expect(c.image).toMatch(/^nats:2\.(9|1\d)/);
    const args: string[] = (c.args ?? []).map(String);
    expect(args).toContain('-js');
    const storeDir = argValue(args, '-sd') ?? argValue(args, '--store_dir');
    expect(storeDir).toBeDefined();
    const claims = (nats!.spec.volumeClaimTemplates ?? []).map((t: Obj) => t.metadata.name);
    expect(claims.length).toBeGreaterThan(0);
    const mount = (c.volumeMounts ?? []).find((m: Obj) => m.mountPath === storeDir);
    expect(claims).toContain(mount?.name);
    const claim = nats!.spec.volumeClaimTemplates.find((t: Obj) => t.metadata.name === mount.name);
    expect(claim.spec.resources.requests.storage).toBeDefined();
  });

  it('has a headless Service that selects it and serves the client port', () => {
    const svc = find(objects, 'Service', nats!.spec.serviceName);
    expect(svc?.spec.clusterIP).toBe('None');
    expect(isSubset(svc!.spec.selector, nats!.spec.template.metadata.labels)).toBe(true);
    expect(svc!.spec.ports.map((p: Obj) => p.port)).toContain(4222);
    expect(isSubset(nats!.spec.selector.matchLabels, nats!.spec.template.metadata.labels)).toBe(true);
  });

  it('runs with the users of nats.conf (a ConfigMap generated from the file), their passwords from the Secret conversa-nats', () => {
    const c = containers(nats!)[0];
    const args: string[] = (c.args ?? []).map(String);
    expect(argValue(args, '-c')).toBe('/etc/nats/nats.conf');
    const mount = (c.volumeMounts ?? []).find((m: Obj) => m.mountPath === '/etc/nats');
    const volume = podSpec(nats!).volumes.find((v: Obj) => v.name === mount?.name);
    expect(volume?.configMap?.name).toBe('nats-config');
    const kustomization = parse(read(join(K8S_BASE, 'kustomization.yaml')));
    expect(kustomization.configMapGenerator).toContainEqual({ name: 'nats-config', files: ['nats.conf'] });
    const users = natsUsers();
    expect(Object.keys(users).sort()).toEqual([...SERVICE_NAMES, 'operator'].sort());
    for (const variable of Object.values(users)) {
      const entry = (c.env ?? []).find((e: Obj) => e.name === variable);
      expect({ variable, ref: entry?.valueFrom?.secretKeyRef }).toEqual({ variable, ref: { name: NATS_SECRET, key: variable } });
    }
    // no anonymous access: every connection is one of these users
    expect(read(NATS_CONF)).not.toMatch(/no_auth_user/);
  });

  it('admits port 4222 only from the services (NetworkPolicy)', () => {
    const policies = byKind(objects, 'NetworkPolicy').filter((p) =>
      isSubset(p.spec.podSelector.matchLabels, nats!.spec.template.metadata.labels),
    );
    expect(policies).toHaveLength(1);
    const [policy] = policies;
    expect(policy.spec.policyTypes).toEqual(['Ingress']);
    expect(policy.spec.ingress).toHaveLength(1);
    const [rule] = policy.spec.ingress;
    expect(rule.ports).toEqual([{ protocol: 'TCP', port: 4222 }]);
    expect(rule.from).toHaveLength(1);
    const [expression] = rule.from[0].podSelector.matchExpressions;
    expect(expression).toMatchObject({ key: 'app.kubernetes.io/name', operator: 'In' });
    expect([...expression.values].sort()).toEqual([...SERVICE_NAMES].sort());
  });

  it('probes /healthz on the monitoring port 8222', () => {
    const c = containers(nats!)[0];
    const args: string[] = (c.args ?? []).map(String);
    expect(argValue(args, '-m') ?? argValue(args, '--http_port')).toBe('8222');
    for (const probe of ['readinessProbe', 'livenessProbe']) {
      expect(c[probe]?.httpGet?.path).toMatch(/^\/healthz/);
      expect(containerPortNumber(c, c[probe].httpGet.port)).toBe(8222);
    }
    for (const kind of ['requests', 'limits']) {
      expect(c.resources?.[kind]?.cpu).toBeDefined();
      expect(c.resources?.[kind]?.memory).toBeDefined();
    }
  });
});

describe('k8s Redis', () => {
  const objects = loadK8s();
  const redis = find(objects, 'StatefulSet', 'redis');

  it('keeps jobs: AOF with an fsync every second, on a volumeClaimTemplate, never evicting keys', () => {
    expect(redis).toBeDefined();
    const c = containers(redis!)[0];
    expect(c.image).toMatch(/^redis:7/);
    const args: string[] = (c.args ?? []).map(String);
    expect(argValue(args, '--appendonly')).toBe('yes');
    expect(argValue(args, '--appendfsync')).toBe('everysec');
    expect(argValue(args, '--maxmemory-policy')).toBe('noeviction');
    const dir = argValue(args, '--dir');
    const mount = (c.volumeMounts ?? []).find((m: Obj) => m.mountPath === dir);
    const claim = (redis!.spec.volumeClaimTemplates ?? []).find((t: Obj) => t.metadata.name === mount?.name);
    expect(claim?.spec.resources.requests.storage).toBeDefined();
  });

  it('is what the example Secret points the services at, with its password', () => {
    const svc = find(objects, 'Service', redis!.spec.serviceName);
    expect(svc?.spec.ports.map((p: Obj) => p.port)).toContain(6379);
    const example = parseYamlFile(join(K8S_BASE, 'secrets.example.yaml'))[0].stringData;
    const url = new URL(example.REDIS_URL);
    expect({ host: url.host, password: decodeURIComponent(url.password) }).toEqual({
      host: 'redis:6379',
      password: example.REDIS_PASSWORD,
    });
  });

  it('asks for a password, from the Secret (never written in the manifest), and its probes give it', () => {
    const c = containers(redis!)[0];
    const script = (c.command ?? []).join(' ');
    expect(script).toMatch(/redis-server --requirepass "\$REDIS_PASSWORD"/);
    expect(script).toMatch(/"\$@"/); // the args below still reach redis-server
    const ref = (variable: string) => (c.env ?? []).find((e: Obj) => e.name === variable)?.valueFrom?.secretKeyRef;
    expect(ref('REDIS_PASSWORD')).toEqual({ name: SECRET_NAME, key: 'REDIS_PASSWORD' });
    expect(ref('REDISCLI_AUTH')).toEqual({ name: SECRET_NAME, key: 'REDIS_PASSWORD' });
    expect(JSON.stringify(c)).not.toMatch(/change-me/i);
  });

  it('admits port 6379 only from the services (NetworkPolicy)', () => {
    const policies = byKind(objects, 'NetworkPolicy').filter((p) =>
      isSubset(p.spec.podSelector.matchLabels, redis!.spec.template.metadata.labels),
    );
    expect(policies).toHaveLength(1);
    const [policy] = policies;
    expect(policy.spec.policyTypes).toEqual(['Ingress']);
    expect(policy.spec.ingress).toHaveLength(1);
    const [rule] = policy.spec.ingress;
    expect(rule.ports).toEqual([{ protocol: 'TCP', port: 6379 }]);
    expect(rule.from).toHaveLength(1);
    const [expression] = rule.from[0].podSelector.matchExpressions;
    expect(expression).toMatchObject({ key: 'app.kubernetes.io/name', operator: 'In' });
    // and the sessions scaler, which reads the replicas' registry there
    expect([...expression.values].sort()).toEqual([...SERVICE_NAMES, SCALER].sort());
  });
});

describe('k8s whatsapp-sessions replicas and their scaler', () => {
  const objects = loadK8s();
  const sessions = find(objects, 'StatefulSet', 'whatsapp-sessions');
  const scaler = find(objects, 'Deployment', SCALER);
  const configOf = (workload: Obj): Record<string, string> =>
    Object.assign(
      {},
      ...(containers(workload)[0].envFrom ?? []).map((e: Obj) => find(objects, 'ConfigMap', e.configMapRef?.name)?.data ?? {}),
    );
  const envEntry = (workload: Obj, name: string) => (containers(workload)[0].env ?? []).find((e: Obj) => e.name === name);
  /** The variables a settings class of the service declares (and those of server-kit's BaseEnv). */
  const declared = (file: string) =>
    new Set(
      [
        read(join(ROOT, 'services', 'whatsapp-sessions', 'src', file)),
        read(join(ROOT, 'libs', 'server-kit', 'src', 'config', 'base.env.ts')),
      ].flatMap((source) => [...source.matchAll(/^\s+(?:override\s+)?([A-Z][A-Z0-9_]+)\??:/gm)].map((m) => m[1])),
    );

  it('runs the sessions as a StatefulSet of stable names: no Deployment, pods started and replaced in parallel, one at a time on update', () => {
    expect(sessions).toBeDefined();
    expect(find(objects, 'Deployment', 'whatsapp-sessions')).toBeUndefined();
    expect(sessions!.spec.podManagementPolicy).toBe('Parallel');
    expect(sessions!.spec.updateStrategy?.type).toBe('RollingUpdate');
    // the scaler owns the count: one here would be put back by every `kubectl apply`
    expect(sessions!.spec.replicas).toBeUndefined();
    // each replica is its pod's name (whatsapp-sessions-0 …): what the scaler drains and removes
    expect(envEntry(sessions!, 'SESSION_OWNER_ID')?.valueFrom).toEqual({ fieldRef: { fieldPath: 'metadata.name' } });
  });

  it('has a headless governing Service for the pods and keeps the load-balanced Service the gateway calls', () => {
    const headless = find(objects, 'Service', sessions!.spec.serviceName);
    expect(sessions!.spec.serviceName).toBe('whatsapp-sessions-headless');
    expect(headless?.spec.clusterIP).toBe('None');
    expect(isSubset(headless!.spec.selector, sessions!.spec.template.metadata.labels)).toBe(true);
    expect(headless!.spec.ports.map((p: Obj) => p.port)).toEqual([SERVICES['whatsapp-sessions']]);
    const service = find(objects, 'Service', 'whatsapp-sessions');
    expect(service?.spec.clusterIP).toBeUndefined();
    expect(service?.spec.type ?? 'ClusterIP').toBe('ClusterIP');
  });

  it('gives a stopping replica time to hand its sessions over: the grace period above SHUTDOWN_TIMEOUT_S', () => {
    const shutdown = Number(configOf(sessions!).SHUTDOWN_TIMEOUT_S);
    expect(shutdown).toBeGreaterThanOrEqual(30);
    expect(podSpec(sessions!).terminationGracePeriodSeconds).toBeGreaterThan(shutdown);
  });

  it('is scraped by Prometheus on its port', () => {
    expect(sessions!.spec.template.metadata.annotations).toEqual({
      'prometheus.io/scrape': 'true',
      'prometheus.io/port': String(SERVICES['whatsapp-sessions']),
      'prometheus.io/path': '/metrics',
    });
  });

  it('lets voluntary disruptions take one replica at a time (a PodDisruptionBudget of its pods only)', () => {
    const budgets = byKind(objects, 'PodDisruptionBudget').filter((b) =>
      isSubset(b.spec.selector?.matchLabels, sessions!.spec.template.metadata.labels),
    );
    expect(budgets).toHaveLength(1);
    expect(budgets[0].apiVersion).toBe('policy/v1');
    expect(budgets[0].spec.maxUnavailable).toBe(1);
    expect(budgets[0].spec.minAvailable).toBeUndefined();
    expect(isSubset(budgets[0].spec.selector.matchLabels, scaler!.spec.template.metadata.labels)).toBe(false);
  });

  it("runs one scaler with whatsapp-sessions' image and its scaler entry point, pointed at the StatefulSet in its own namespace", () => {
    expect(scaler).toBeDefined();
    expect(scaler!.spec.replicas).toBe(1);
    expect(isSubset(scaler!.spec.selector.matchLabels, scaler!.spec.template.metadata.labels)).toBe(true);
    // no Service of the platform sends it traffic, nor picks the sessions' pods and it together
    for (const svc of byKind(objects, 'Service'))
      expect({ svc: svc.metadata.name, picks: isSubset(svc.spec.selector, scaler!.spec.template.metadata.labels) }).toEqual({
        svc: svc.metadata.name,
        picks: false,
      });
    const [c] = containers(scaler!);
    expect(c.image).toBe(containers(sessions!)[0].image);
    expect(c.command).toEqual(['node', 'services/whatsapp-sessions/dist/scaler-main.js']);
    // built by the service's tsc build from src/
    expect(existsSync(join(ROOT, 'services', 'whatsapp-sessions', 'src', 'scaler-main.ts'))).toBe(true);
    const config = configOf(scaler!);
    expect(config.SCALER_STATEFULSET).toBe(sessions!.metadata.name);
    expect(envEntry(scaler!, 'SCALER_NAMESPACE')?.valueFrom).toEqual({ fieldRef: { fieldPath: 'metadata.namespace' } });
    expect(envEntry(scaler!, 'REDIS_URL')?.valueFrom?.secretKeyRef).toEqual({ name: SECRET_NAME, key: 'REDIS_URL' });
    // bounds that hold the StatefulSet's own count, and settings the scaler reads (no misspelt knob)
    expect(Number(config.SCALER_MIN_REPLICAS)).toBeLessThanOrEqual(Number(config.SCALER_MAX_REPLICAS));
    // more than one replica: a failing one's sessions have somewhere to go at once
    expect(Number(config.SCALER_MIN_REPLICAS)).toBeGreaterThanOrEqual(2);
    const known = declared('scaler/scaler.env.ts');
    for (const key of [...Object.keys(config), ...(c.env ?? []).map((e: Obj) => e.name)])
      expect({ key, known: known.has(key) }).toEqual({ key, known: true });
    expect(config.REPLICA_TTL_MS ?? '10000').toBe(configOf(sessions!).REPLICA_TTL_MS ?? '10000');
  });

  it('probes the scaler on /health/live at its port, as a non-root user with limits and a read-only root', () => {
    const [c] = containers(scaler!);
    expect(c.livenessProbe?.httpGet?.path).toBe('/health/live');
    expect(containerPortNumber(c, c.livenessProbe.httpGet.port)).toBe(Number(configOf(scaler!).PORT));
    expect(configOf(scaler!).HOST).toBe('0.0.0.0');
    for (const kind of ['requests', 'limits'])
      for (const resource of ['cpu', 'memory']) expect(c.resources?.[kind]?.[resource]).toBeDefined();
    expect(podSpec(scaler!).securityContext?.runAsNonRoot).toBe(true);
    expect(podSpec(scaler!).securityContext?.runAsUser).toBeGreaterThan(0);
    expect(c.securityContext?.readOnlyRootFilesystem).toBe(true);
  });

  it('gives the scaler, and no other pod, an API token: its Role may only get the StatefulSet and get or patch its scale', () => {
    const account = podSpec(scaler!).serviceAccountName;
    expect(find(objects, 'ServiceAccount', account)).toBeDefined();
    expect(podSpec(scaler!).automountServiceAccountToken).toBe(true);
    for (const w of [...byKind(objects, 'Deployment'), ...byKind(objects, 'StatefulSet')]) {
      if (w === scaler) continue;
      expect({ workload: w.metadata.name, automount: podSpec(w).automountServiceAccountToken }).toEqual({
        workload: w.metadata.name,
        automount: false,
      });
    }
    const bindings = byKind(objects, 'RoleBinding').filter((b) =>
      (b.subjects ?? []).some((s: Obj) => s.kind === 'ServiceAccount' && s.name === account),
    );
    expect(bindings).toHaveLength(1);
    expect(bindings[0].subjects).toEqual([{ kind: 'ServiceAccount', name: account }]);
    expect(bindings[0].roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: bindings[0].roleRef.name });
    const role = find(objects, 'Role', bindings[0].roleRef.name);
    expect(role?.rules).toEqual([
      { apiGroups: ['apps'], resources: ['statefulsets'], resourceNames: [sessions!.metadata.name], verbs: ['get'] },
      { apiGroups: ['apps'], resources: ['statefulsets/scale'], resourceNames: [sessions!.metadata.name], verbs: ['get', 'patch'] },
    ]);
    // nothing cluster-wide
    expect(byKind(objects, 'ClusterRole')).toEqual([]);
    expect(byKind(objects, 'ClusterRoleBinding')).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// docker compose.

describe('deploy/docker-compose.yml', () => {
  const composeLoad = attempt(() => parseYamlFile(join(DEPLOY, 'docker-compose.yml'))[0], {} as Obj);
  const services: Obj = composeLoad.value?.services ?? {};

  it('parses', () => {
    if (composeLoad.error) throw composeLoad.error;
    expect(Object.keys(services).length).toBeGreaterThan(0);
  });
  const envOf = (s: Obj): Obj =>
    Array.isArray(s.environment)
      ? Object.fromEntries(s.environment.map((kv: string) => [kv.split('=')[0], kv.slice(kv.indexOf('=') + 1)]))
      : (s.environment ?? {});
  /** `${VAR:?…}`: the value of deploy/.env's VAR, required (compose refuses to start without it). */
  const fromDotEnv = (variable: string) => expect.stringMatching(new RegExp(`^\\$\\{${variable}:\\?[^}]+\\}$`));

  const commandOf = (s: Obj): string[] => (Array.isArray(s.command) ? s.command.map(String) : String(s.command ?? '').split(/\s+/));
  const volumeTarget = (s: Obj, target: string) =>
    (s.volumes ?? []).some((v: Obj | string) => (typeof v === 'string' ? v.split(':')[1] === target : v.target === target));

  it('runs postgres 15 with a healthcheck and a volume', () => {
    const pg = services.postgres;
    expect(pg.image).toMatch(/^postgres:15/);
    expect(JSON.stringify(pg.healthcheck?.test)).toContain('pg_isready');
    expect(volumeTarget(pg, '/var/lib/postgresql/data')).toBe(true);
  });

  it('runs redis 7 with a password, a healthcheck, AOF persistence (fsync every second) and a volume', () => {
    expect(services.redis.image).toMatch(/^redis:7/);
    expect(services.redis.healthcheck?.test).toBeDefined();
    // through a shell, which puts the password in from the environment
    const script = commandOf(services.redis);
    expect(script.slice(0, 2)).toEqual(['sh', '-c']);
    const command = script[2].split(/\s+/);
    expect(command[command.indexOf('--requirepass') + 1]).toBe('"$$REDIS_PASSWORD"');
    expect(envOf(services.redis)).toEqual({ REDIS_PASSWORD: fromDotEnv('REDIS_PASSWORD'), REDISCLI_AUTH: fromDotEnv('REDIS_PASSWORD') });
    expect(command[command.indexOf('--appendonly') + 1]).toBe('yes');
    expect(command[command.indexOf('--appendfsync') + 1]).toBe('everysec');
    expect(volumeTarget(services.redis, '/data')).toBe(true);
  });

  it('runs nats with JetStream storing on a volume', () => {
    const nats = services.nats;
    expect(nats.image).toMatch(/^nats:2\.(9|1\d)/);
    const command = commandOf(nats);
    expect(command).toContain('-js');
    const storeDir = argValue(command, '-sd');
    expect(storeDir).toBeDefined();
    expect(volumeTarget(nats, storeDir!)).toBe(true);
    expect(nats.healthcheck?.test).toBeDefined();
  });

  it("runs each service's node with its own options where it has them, as k8s/base does (scripts/lib/service-runtime.mjs)", async () => {
    const { SERVICE_NODE_OPTIONS_OF } = await serviceRuntime();
    for (const name of SERVICE_NAMES)
      expect({ name, NODE_OPTIONS: envOf(services[name]).NODE_OPTIONS }).toEqual({ name, NODE_OPTIONS: SERVICE_NODE_OPTIONS_OF[name] });
  });

  it('runs nats with the users of k8s/base/nats.conf, every password required from deploy/.env', () => {
    const nats = services.nats;
    expect(argValue(commandOf(nats), '-c')).toBe('/etc/nats/nats.conf');
    const mount = (nats.volumes ?? []).find((v: string) => typeof v === 'string' && v.split(':')[1] === '/etc/nats/nats.conf');
    expect(resolve(DEPLOY, mount.split(':')[0])).toBe(NATS_CONF);
    const env = envOf(nats);
    for (const variable of Object.values(natsUsers()))
      expect({ variable, value: env[variable] }).toEqual({ variable, value: expect.stringMatching(new RegExp(`^\\$\\{${variable}:\\?`)) });
    for (const name of SERVICE_NAMES) {
      expect(envOf(services[name]).NATS_USER).toBe(name);
      expect(envOf(services[name]).NATS_PASSWORD).toMatch(new RegExp(`^\\$\\{${natsPasswordKey(name)}:\\?`));
    }
  });

  it.each(MIGRATING)(
    "runs %s's own migrations with its own image, once, before it starts, as the owner making the service's role",
    (name) => {
      const migrate = services[`migrate-${name}`];
      expect(commandOf(migrate)).toEqual(['node', `services/${name}/dist/migrate.js`]);
      expect(envOf(migrate)).toMatchObject({
        DATABASE_URL: fromDotEnv('DATABASE_URL'),
        SERVICE_DATABASE_URL: fromDotEnv(databaseUrlKey(name)),
      });
      expect(migrate.env_file).toBeUndefined();
      expect(migrate.image).toBe(services[name].image);
      expect(migrate.build?.args?.SERVICE).toBe(name);
      expect(migrate.restart).toBe('no');
      expect(migrate.depends_on?.postgres?.condition).toBe('service_healthy');
      expect(services[name].depends_on?.[`migrate-${name}`]?.condition).toBe('service_completed_successfully');
    },
  );

  it('makes the first super user from deploy/.env once auth is migrated (a placeholder password is refused)', () => {
    const seed = services['first-super-user'];
    expect(commandOf(seed)).toEqual(['node', 'services/auth/dist/seed-super-user.js']);
    expect(seed.image).toBe(services.auth.image);
    expect(seed.depends_on?.['migrate-auth']?.condition).toBe('service_completed_successfully');
    expect(envOf(seed)).toMatchObject({
      SUPER_USER_EMAIL: fromDotEnv('SUPER_USER_EMAIL'),
      SUPER_USER_PASSWORD: fromDotEnv('SUPER_USER_PASSWORD'),
    });
    expect(read(join(DEPLOY, '.env.example'))).toMatch(/^SUPER_USER_EMAIL=\S+@\S+$/m);
    expect(read(join(DEPLOY, '.env.example'))).toMatch(/^SUPER_USER_PASSWORD=change-me/m);
  });

  it.each(SERVICE_NAMES)('builds %s from deploy/Dockerfile with its SERVICE arg, env and dependencies', (name) => {
    const s = services[name];
    expect(s).toBeDefined();
    expect(resolve(DEPLOY, s.build.context)).toBe(ROOT);
    expect(s.build.dockerfile).toBe('deploy/Dockerfile');
    expect(s.build.args?.SERVICE).toBe(name);
    expect(s.build.target).toBeUndefined(); // the default (last) stage is the service runtime
    const env = envOf(s);
    expect(String(env.PORT)).toBe(String(SERVICES[name]));
    expect(env.HOST).toBe('0.0.0.0');
    expect(env.REDIS_URL).toBe('redis://:${REDIS_PASSWORD:?set REDIS_PASSWORD in deploy/.env}@redis:6379/0');
    expect(env.NATS_URL).toBe('nats://nats:4222');
    // Secrets only from deploy/.env (required), never inline, and only those it uses: not the whole file
    expect(s.env_file).toBeUndefined();
    expect(env.JWT_SECRET).toEqual(fromDotEnv('JWT_SECRET'));
    // its own database role, never the schemas' owner; no database at all without tables
    if (MIGRATING.includes(name)) expect(env.DATABASE_URL).toEqual(fromDotEnv(databaseUrlKey(name)));
    else expect(env.DATABASE_URL).toBeUndefined();
    const own: Record<string, string[]> = {
      auth: ['AUTH_SECRETS_KEY', 'SMTP_URL'],
      tickets: ['TICKETS_SECRETS_KEY'],
      'whatsapp-sessions': ['CONNECTION_TOKEN_KEY'],
      billing: ['SMTP_URL', 'BILLING_WEBHOOK_SECRET'],
    };
    for (const key of ['AUTH_SECRETS_KEY', 'SMTP_URL', 'TICKETS_SECRETS_KEY', 'CONNECTION_TOKEN_KEY', 'BILLING_WEBHOOK_SECRET']) {
      expect({ key, value: env[key] }).toEqual({ key, value: own[name]?.includes(key) ? fromDotEnv(key) : undefined });
    }
    expect(s.depends_on?.postgres?.condition).toBe('service_healthy');
    expect(s.depends_on?.redis?.condition).toBe('service_healthy');
    expect(s.depends_on?.nats?.condition).toBe('service_healthy');
    if (MIGRATING.includes(name)) expect(s.depends_on?.[`migrate-${name}`]?.condition).toBe('service_completed_successfully');
    else expect(Object.keys(s.depends_on ?? {}).filter((d) => d.startsWith('migrate'))).toEqual([]);
  });

  it('runs production settings: secure refresh cookie (auth), real phones by default (whatsapp-sessions)', () => {
    expect(String(envOf(services.auth).COOKIE_SECURE)).toBe('true');
    expect(envOf(services['whatsapp-sessions']).DEFAULT_CHANNEL).toBe('baileys');
  });

  it('points the messaging-gateway at every upstream; the edge, not the gateway, publishes port 8080', () => {
    const env = envOf(services['messaging-gateway']);
    for (const [key, service] of Object.entries(GATEWAY_UPSTREAMS)) {
      expect(services[service]).toBeDefined();
      expect({ key, url: env[key] }).toEqual({ key, url: `http://${service}:${SERVICES[service]}` });
    }
    expect(env.WEB_ORIGIN).toBeDefined();
    expect(services['messaging-gateway'].ports).toBeUndefined();
    expect(services.edge.ports.map(String)).toEqual(['8080:8080']);
    // nothing else is published but the web app
    const published = Object.entries(services)
      .filter(([, s]) => (s as Obj).ports)
      .map(([n]) => n);
    expect(published.sort()).toEqual(['edge', 'web']);
  });

  const addressOf = (name: string): string => services[name]?.networks?.default?.ipv4_address;

  it('counts each client in the per-address limits: the gateway believes X-Forwarded-For from the edge only, the services from the gateway only', () => {
    const subnet = composeLoad.value.networks?.default?.ipam?.config?.[0]?.subnet as string;
    expect(subnet).toMatch(/^\d+\.\d+\.\d+\.0\/24$/);
    const prefix = subnet.replace(/0\/24$/, '');
    for (const name of ['edge', 'messaging-gateway'])
      expect({ name, address: addressOf(name) }).toEqual({
        name,
        address: expect.stringMatching(new RegExp(`^${prefix.replace(/\./g, '\\.')}\\d+$`)),
      });
    expect(addressOf('edge')).not.toBe(addressOf('messaging-gateway'));
    // the operator may add a TLS proxy of their own; the default is the edge alone
    expect(envOf(services['messaging-gateway']).TRUSTED_PROXIES).toBe(`\${GATEWAY_TRUSTED_PROXIES:-${addressOf('edge')}}`);
    for (const name of SERVICE_NAMES.filter((n) => n !== 'messaging-gateway')) {
      expect({ name, trusted: envOf(services[name]).TRUSTED_PROXIES }).toEqual({ name, trusted: addressOf('messaging-gateway') });
    }
  });

  it('has an edge (nginx, as the ingress in k8s) that appends the client to X-Forwarded-For, hides /metrics and /docs and admits the uploads the gateway does', () => {
    const MEDIA_UPLOAD_MAX_BYTES = mediaUploadMaxBytes();
    const edge = services.edge;
    expect(edge.image).toMatch(/^nginxinc\/nginx-unprivileged:/);
    const mount = (edge.volumes ?? []).find((v: string) => typeof v === 'string' && v.split(':')[1] === '/etc/nginx/conf.d/default.conf');
    expect(resolve(DEPLOY, mount.split(':')[0])).toBe(join(DEPLOY, 'nginx', 'edge.conf'));
    const conf = read(join(DEPLOY, 'nginx', 'edge.conf'));
    expect(conf).toMatch(/listen\s+8080;/);
    expect(conf).toMatch(/proxy_pass http:\/\/messaging-gateway:8080;/);
    // appended, never replaced by what the client sent, never left out
    expect(conf).toMatch(/proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;/);
    // the operators' paths, whatever their case or leading slashes, answer 404 before the gateway
    const hidden = /location ~\* (\S+) \{\s*default_type application\/json;\s*return 404 '([^']+)';/.exec(conf);
    expect(hidden).not.toBeNull();
    const pattern = new RegExp(hidden![1], 'i');
    for (const path of ['/metrics', '/docs', '/docs/openapi.json', '//metrics', '/METRICS'])
      expect({ path, hidden: pattern.test(path) }).toEqual({ path, hidden: true });
    for (const path of ['/auth/login', '/tickets', '/documents', '/metricsx'])
      expect({ path, hidden: pattern.test(path) }).toEqual({ path, hidden: false });
    expect(JSON.parse(hidden![2])).toMatchObject({ error: 'ERR_NOT_FOUND', statusCode: 404 });
    // uploads: the gateway's limit, the largest file and its envelope
    const size = /client_max_body_size (\d+)m;/.exec(conf);
    expect(Number(size?.[1]) * 1024 ** 2).toBeGreaterThanOrEqual(MEDIA_UPLOAD_MAX_BYTES + 64 * 1024);
    expect(envOf(services['messaging-gateway']).UPLOAD_BODY_LIMIT).toBe(`${size![1]}mb`);
    expect(conf).toMatch(/proxy_request_buffering off;/);
    // socket.io's websockets pass
    expect(conf).toMatch(/proxy_set_header Upgrade \$http_upgrade;/);
  });

  it("builds the web app from the web target, on port 3000, telling the console the gateway's address", () => {
    const web = services.web;
    expect(envOf(web).PUBLIC_API_URL).toBe('http://localhost:8080');
    expect(resolve(DEPLOY, web.build.context)).toBe(ROOT);
    expect(web.build.dockerfile).toBe('deploy/Dockerfile');
    expect(web.build.target).toBe('web');
    expect(web.ports.map(String)).toContain('3000:3000');
  });

  it('has an .env.example to copy, with placeholders a production service refuses and a consistent DATABASE_URL', () => {
    const env = Object.fromEntries(
      read(join(DEPLOY, '.env.example'))
        .split('\n')
        .filter((l) => /^[A-Z_]+=/.test(l))
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
    // copied unedited, every secret is refused at start (see libs/server-kit/src/config/secrets.ts)
    expect(env.JWT_SECRET).toMatch(/change-me/i);
    expect(env.CONNECTION_TOKEN_KEY).toMatch(/change-me/i);
    expect(env.TICKETS_SECRETS_KEY).toMatch(/change-me/i);
    expect(env.AUTH_SECRETS_KEY).toMatch(/change-me/i);
    expect(env.POSTGRES_PASSWORD).toMatch(/change-me/i);
    expect(env.JWT_REFRESH_SECRET).toBeUndefined();
    // NATS passwords: placeholders, in the one form nats-server reads back unchanged
    for (const variable of Object.values(natsUsers()))
      expect({ variable, value: env[variable] }).toEqual({ variable, value: expect.stringMatching(/^change-me[A-Za-z0-9_-]+$/) });
    const db = new URL(env.DATABASE_URL);
    expect(db.protocol).toBe('postgres:');
    expect(db.hostname).toBe('postgres');
    expect(db.username).toBe(env.POSTGRES_USER);
    expect(db.password).toBe(env.POSTGRES_PASSWORD);
    expect(db.pathname).toBe(`/${env.POSTGRES_DB}`);
    // one role per service with tables, on the same database, none the owner
    const users = MIGRATING.map((name) => {
      const own = new URL(env[databaseUrlKey(name)]);
      expect({ name, host: own.host, db: own.pathname, password: own.password }).toEqual({
        name,
        host: db.host,
        db: db.pathname,
        password: expect.stringMatching(/^change-me.{7,}/),
      });
      return own.username;
    });
    expect(new Set([...users, db.username]).size).toBe(MIGRATING.length + 1);
    expect(env.REDIS_PASSWORD).toMatch(/change-me/);
    expect(env.SMTP_URL).toMatch(/^smtps?:\/\//);
    expect(envOf(services.postgres)).toEqual({
      POSTGRES_USER: fromDotEnv('POSTGRES_USER'),
      POSTGRES_PASSWORD: fromDotEnv('POSTGRES_PASSWORD'),
      POSTGRES_DB: fromDotEnv('POSTGRES_DB'),
    });
    // every variable the compose file requires is in the example
    const required = [...read(join(DEPLOY, 'docker-compose.yml')).matchAll(/\$\{(\w+):\?/g)].map((m) => m[1]);
    for (const variable of new Set(required)) expect({ variable, inExample: variable in env }).toEqual({ variable, inExample: true });
  });
});

// ---------------------------------------------------------------------------------------------
// nginx of the web image.

describe('deploy/nginx/web.conf', () => {
  const conf = read(join(DEPLOY, 'nginx', 'web.conf'));
  // a location's body ends at its closing brace, alone on its line (a body may hold braces: /config.js's JSON)
  const locations = [...conf.matchAll(/location\s+(?:=\s+)?(\S+)\s*\{([\s\S]*?)\n {4}\}/g)].map((m) => ({ path: m[1], body: m[2] }));

  it('answers /config.js with the API address from the environment (rendered at start), never cached', () => {
    const config = locations.find((l) => l.path === '/config.js')?.body ?? '';
    expect(config).toMatch(/default_type application\/javascript;/);
    expect(config).toMatch(/no-store/);
    expect(config).toContain(`return 200 'window.__CONVERSA__ = {"apiUrl":"\${PUBLIC_API_URL}"};`);
  });

  it('sends the security headers from every location (an add_header in a location hides the server ones)', () => {
    expect(locations.map((l) => l.path).sort()).toEqual(['/', '/assets/', '/config.js']);
    for (const { path, body } of locations) {
      const csp = /add_header Content-Security-Policy "([^"]+)" always;/.exec(body)?.[1] ?? '';
      expect({
        path,
        frameAncestors: /frame-ancestors 'none'/.test(csp),
        scripts: /script-src 'self'(;|$)/.test(csp),
        objects: /object-src 'none'/.test(csp),
      }).toEqual({
        path,
        frameAncestors: true,
        scripts: true,
        objects: true,
      });
      // the API (another origin) is where the console calls, its socket and its media come from
      expect(csp).toMatch(/connect-src 'self' \$\{PUBLIC_API_URL\}/);
      expect(body).toMatch(/add_header X-Content-Type-Options "nosniff" always;/);
      expect(body).toMatch(/add_header Referrer-Policy "[a-z-]+" always;/);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Dockerfile.

interface Instruction {
  op: string;
  args: string;
}
interface Stage {
  name?: string;
  from: string;
  instructions: Instruction[];
}

function parseDockerfile(text: string): { globalArgs: Record<string, string>; stages: Stage[] } {
  const logical: string[] = [];
  let current = '';
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd();
    if (current === '' && /^\s*#/.test(line)) continue; // comment or parser directive
    if (current !== '' && /^\s*#/.test(line)) continue; // comment inside a continuation
    if (line.endsWith('\\')) {
      current += line.slice(0, -1) + ' ';
      continue;
    }
    current += line;
    if (current.trim() !== '') logical.push(current.trim());
    current = '';
  }
  const globalArgs: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const l of logical) {
    const [, op, args] = /^(\S+)\s*(.*)$/.exec(l)!;
    const upper = op.toUpperCase();
    if (upper === 'FROM') {
      const m = /^(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args)!;
      const from = m[1].replace(/\$\{?(\w+)\}?/g, (_, v) => globalArgs[v] ?? `\${${v}}`);
      stages.push({ from, name: m[2], instructions: [] });
    } else if (stages.length === 0) {
      if (upper === 'ARG') {
        const [k, v] = args.split('=');
        globalArgs[k] = v ?? '';
      }
    } else {
      stages[stages.length - 1].instructions.push({ op: upper, args });
    }
  }
  return { globalArgs, stages };
}

/** .dockerignore semantics, simplified: the last pattern matching the path or a parent of it wins. */
function isIgnored(patterns: string[], path: string): boolean {
  const toRegExp = (glob: string) =>
    new RegExp(
      '^' +
        glob
          .replace(/^\.?\//, '')
          .replace(/[.+^${}()|[\]\\]/g, '\\$&')
          .replace(/\*\*\/?/g, '\u0001')
          .replace(/\*/g, '[^/]*')
          .replace(/\?/g, '[^/]')
          // a placeholder for "**", put back once the single stars are done
          .replace(new RegExp(String.fromCharCode(1), 'g'), '(.*/)?') +
        '$',
    );
  const parts = path.split('/');
  const candidates = parts.map((_, i) => parts.slice(0, i + 1).join('/'));
  let ignored = false;
  for (const raw of patterns) {
    const negated = raw.startsWith('!');
    const re = toRegExp(negated ? raw.slice(1) : raw);
    if (candidates.some((c) => re.test(c))) ignored = !negated;
  }
  return ignored;
}

describe('deploy/Dockerfile', () => {
  const dockerfileLoad = attempt(() => parseDockerfile(read(join(DEPLOY, 'Dockerfile'))), {
    globalArgs: {},
    stages: [] as Stage[],
  });
  const { stages } = dockerfileLoad.value;

  it('parses', () => {
    if (dockerfileLoad.error) throw dockerfileLoad.error;
    expect(stages.length).toBeGreaterThan(1);
  });
  const stage = (name: string) => stages.find((s) => s.name === name);
  const ops = (s: Stage | undefined, op: string) => (s?.instructions ?? []).filter((i) => i.op === op);
  const runtime: Stage = stages[stages.length - 1] ?? { from: '', instructions: [] };
  const isNonRoot = (user: string | undefined) => user !== undefined && !/^(root|0)(:|$)/.test(user);
  const lastUser = (s: Stage | undefined) => ops(s, 'USER').at(-1)?.args;
  // The stage that builds the service's Nx project (named directly, or read from its project.json).
  const buildStage = stages.find((s) =>
    ops(s, 'RUN').some(
      (r) =>
        /nx run "?\$\{?SERVICE\}?:build/.test(r.args) ||
        (/services\/\$\{?SERVICE\}?\/project\.json/.test(r.args) && /nx run "?\$\{?\w+\}?:build/.test(r.args)),
    ),
  );

  // the current Node LTS line (26): the images run on it; the suites run on this machine's Node 20 and on 26.12.1
  it('builds on node:26-bookworm-slim', () => {
    const nodeStages = stages.filter((s) => s.from.startsWith('node:'));
    expect(nodeStages.length).toBeGreaterThan(0);
    for (const s of nodeStages) expect(s.from).toBe('node:26-bookworm-slim');
    expect(runtime.from).toBe('node:26-bookworm-slim');
  });

  it("builds the SERVICE arg with Nx after a full install, and ships only that service's production dependencies", () => {
    expect(buildStage).toBeDefined();
    expect(ops(buildStage, 'ARG').map((a) => a.args)).toContain('SERVICE');
    const prodDeps = stages.find((s) => s.name === 'prod-deps');
    expect(prodDeps).toBeDefined();
    expect(ops(prodDeps!, 'ARG').map((a) => a.args)).toContain('SERVICE');
    expect(
      ops(prodDeps!, 'RUN')
        .map((r) => r.args)
        .join('\n'),
    ).toMatch(/npm install --omit=dev --workspace "services\/\$\{SERVICE\}"/);
    // the runtime's node_modules come from there, not from the build's full install
    const copies = ops(runtime, 'COPY').map((c) => c.args);
    expect(copies).toContain('--from=prod-deps /app/node_modules ./node_modules');
    expect(copies.filter((c) => /node_modules/.test(c))).toHaveLength(1);
    expect(
      ops(buildStage, 'RUN')
        .map((r) => r.args)
        .join('\n'),
    ).not.toMatch(/cp[^\n]*node_modules/);
  });

  it.each(['auth', 'tickets', 'whatsapp-sessions', 'campaigns', 'billing', 'realtime-gateway', 'messaging-gateway'])(
    'gives the %s image, by package-lock.json, no web, build or test package, and Baileys only to whatsapp-sessions',
    (service) => {
      const closure = productionClosure(`services/${service}`);
      for (const forbidden of [
        'react',
        'react-dom',
        '@chakra-ui/react',
        'vite',
        'nx',
        'jest',
        '@jest/globals',
        'eslint',
        'playwright-core',
        'socket.io-client',
        '@swc/core',
      ]) {
        expect({ service, forbidden, shipped: closure.has(forbidden) }).toEqual({ service, forbidden, shipped: false });
      }
      expect(closure.has('@whiskeysockets/baileys')).toBe(service === 'whatsapp-sessions');
      expect(closure.has('argon2')).toBe(service === 'auth');
      expect(closure.has('@nestjs/common')).toBe(true);
    },
  );

  it('has a default (last) stage that runs services/${SERVICE}/dist/main.js as a non-root user', () => {
    expect(ops(runtime, 'ARG').map((a) => a.args)).toContain('SERVICE');
    expect(ops(runtime, 'ENV').some((e) => /\bSERVICE=\$\{?SERVICE\}?/.test(e.args))).toBe(true);
    expect(isNonRoot(lastUser(runtime))).toBe(true);
    const cmd = ops(runtime, 'CMD').at(-1)?.args ?? ops(runtime, 'ENTRYPOINT').at(-1)?.args ?? '';
    expect(cmd).toContain('services/${SERVICE}/dist/main.js');
    // COPY only from earlier stages: node_modules from prod-deps, libs and the service's dist from the build
    const copies = ops(runtime, 'COPY').map((c) => c.args);
    expect(copies.length).toBeGreaterThan(0);
    for (const c of copies) expect(c).toMatch(new RegExp(`--from=(${buildStage?.name}|prod-deps)\\b`));
  });

  it('runs node with the options the services run with everywhere (scripts/lib/service-runtime.mjs)', async () => {
    const { SERVICE_NODE_OPTIONS } = await serviceRuntime();
    const set = ops(runtime, 'ENV')
      .map((e) => e.args.match(/\bNODE_OPTIONS=("[^"]*"|\S+)/)?.[1]?.replace(/^"|"$/g, ''))
      .filter((v): v is string => v !== undefined);
    expect(set.at(-1)).toBe(SERVICE_NODE_OPTIONS);
  });

  it('checks /health with node, not curl', () => {
    const healthcheck = ops(runtime, 'HEALTHCHECK').at(-1)?.args ?? '';
    expect(healthcheck).toContain('/health');
    expect(healthcheck).toMatch(/"node"|\bnode\b/);
    expect(healthcheck).not.toMatch(/curl/);
  });

  it('has a web target serving web/dist on port 3000 as a non-root user', () => {
    const web = stage('web');
    expect(web).toBeDefined();
    expect(isNonRoot(lastUser(web))).toBe(true);
    expect(ops(web, 'COPY').some((c) => /web\/dist/.test(c.args))).toBe(true);
    expect(ops(web, 'EXPOSE').map((e) => e.args)).toContain('3000');
    expect(ops(web, 'HEALTHCHECK').length).toBe(1);
  });

  it('copies from the build context only files that exist and are not ignored', () => {
    const ignore = read(join(DEPLOY, 'Dockerfile.dockerignore'))
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    expect(ignore).toEqual(expect.arrayContaining(['node_modules', '**/node_modules', '**/dist', '.env']));
    for (const s of stages) {
      for (const c of ops(s, 'COPY')) {
        if (/--from=/.test(c.args)) continue;
        const sources = c.args
          .split(/\s+/)
          .filter((a) => !a.startsWith('--'))
          .slice(0, -1);
        for (const src of sources) {
          if (src === '.') continue;
          expect({ src, exists: existsSync(join(ROOT, src)) }).toEqual({ src, exists: true });
          expect({ src, ignored: isIgnored(ignore, src) }).toEqual({ src, ignored: false });
        }
      }
    }
  });

  it('ships an nginx config listening on 3000 with an SPA fallback, as a template the entrypoint renders', () => {
    const conf = read(join(DEPLOY, 'nginx', 'web.conf'));
    expect(conf).toMatch(/listen\s+3000;/);
    expect(conf).toMatch(/try_files[^;]*\/index\.html;/);
    const web = stages.find((s) => s.name === 'web');
    expect(ops(web!, 'COPY').map((c) => c.args)).toContain('deploy/nginx/web.conf /etc/nginx/templates/default.conf.template');
    expect(
      ops(web!, 'ENV')
        .map((e) => e.args)
        .join(' '),
    ).toMatch(/PUBLIC_API_URL=/);
  });
});
