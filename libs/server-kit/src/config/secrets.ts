/**
 * What a production process refuses to start with: a secret anyone can read in this repository (the
 * placeholders of deploy/.env.example and k8s/base/secrets.example.yaml, anything containing `change-me`),
 * or one too short to resist guessing. Checked by loadConfig when NODE_ENV=production.
 */
export const MIN_SECRET_BYTES = 32;

const secretKeys = new WeakMap<object, Map<string, SecretOptions>>();

export interface SecretOptions {
  /** production refuses to start without it (an optional secret is checked only when set) */
  requiredInProduction?: boolean;
}

/** Marks a configuration property as a secret: in production it must be long and not a known value. */
export function Secret(options: SecretOptions = {}): PropertyDecorator {
  return (target, property) => {
    const own = new Map(secretKeys.get(target) ?? []);
    own.set(String(property), options);
    secretKeys.set(target, own);
  };
}

/** The secret properties of a configuration object, its classes' included, with their options. */
function secretsOf(config: object): Map<string, SecretOptions> {
  const found = new Map<string, SecretOptions>();
  for (let proto = Object.getPrototypeOf(config); proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const [name, options] of secretKeys.get(proto) ?? []) if (!found.has(name)) found.set(name, options);
  }
  return found;
}

/** The secret properties of a configuration object, its classes' included. */
export function secretPropertiesOf(config: object): string[] {
  return [...secretsOf(config).keys()];
}

/** The examples' placeholders all say so: whoever read the repository knows them. */
function isPlaceholder(value: string): boolean {
  return /change[-_]?me/i.test(value);
}

/** The password of a URL (`postgres://user:pass@host/db`), if it has one. */
function passwordOf(url: string): string | undefined {
  try {
    const pass = new URL(url).password;
    return pass ? decodeURIComponent(pass) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Problems of a production configuration's secrets, one per variable: `@Secret()` properties must be set,
 * at least 32 bytes and not a placeholder; a password inside a `*_URL` must not be a placeholder.
 */
export function productionSecretProblems(config: Record<string, unknown>): Array<{ variable: string; problem: string }> {
  const problems: Array<{ variable: string; problem: string }> = [];
  for (const [name, options] of secretsOf(config)) {
    const value = config[name];
    if (value === undefined || value === null || value === '') {
      if (options.requiredInProduction) problems.push({ variable: name, problem: `${name} is required in production` });
      continue; // optional secret not in use
    }
    const text = String(value);
    if (isPlaceholder(text))
      problems.push({ variable: name, problem: `${name} is a placeholder value (from the examples); set a secret of your own` });
    else if (Buffer.byteLength(text, 'utf8') < MIN_SECRET_BYTES)
      problems.push({ variable: name, problem: `${name} is shorter than ${MIN_SECRET_BYTES} bytes` });
  }
  for (const [name, value] of Object.entries(config)) {
    if (!name.endsWith('_URL') || typeof value !== 'string') continue;
    const pass = passwordOf(value);
    if (pass !== undefined && isPlaceholder(pass))
      problems.push({ variable: name, problem: `${name} carries a placeholder password (from the examples); set a password of your own` });
  }
  return problems;
}
