import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import { productionSecretProblems } from './secrets.js';

export class ConfigError extends Error {
  constructor(
    readonly variables: string[],
    readonly problems: string[],
  ) {
    super(`invalid configuration: ${problems.join('; ')}`);
    this.name = 'ConfigError';
  }
}

type Ctor<T> = new () => T;

/**
 * Validates the environment once, before the app is created, into a typed object.
 * Properties of the class are the variable names; defaults are the class's initial values.
 * With NODE_ENV=production, `@Secret()` values must be at least 32 bytes and no placeholder (see secrets.ts).
 */
export function loadConfig<T extends object>(cls: Ctor<T>, env: NodeJS.ProcessEnv = process.env): T {
  const defaults = new cls() as Record<string, unknown>;
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(defaults)) raw[key] = defaults[key];
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined || value === '') continue;
    // "false" must not become true through Boolean("false")
    raw[key] = typeof defaults[key] === 'boolean' && /^(true|false|1|0)$/i.test(value) ? /^(true|1)$/i.test(value) : value;
  }
  const config = plainToInstance(cls, raw, { enableImplicitConversion: true, exposeDefaultValues: true });
  const errors = validateSync(config, { whitelist: false, skipMissingProperties: false });
  if (errors.length > 0) {
    const variables = errors.map((e) => e.property);
    throw new ConfigError(variables, errors.map(describe));
  }
  // a production process never runs on a secret published with the product, nor on a short one
  if ((config as { NODE_ENV?: string }).NODE_ENV === 'production') {
    const problems = productionSecretProblems(config as Record<string, unknown>);
    if (problems.length > 0)
      throw new ConfigError(
        problems.map((p) => p.variable),
        problems.map((p) => p.problem),
      );
  }
  return config;
}

function describe(error: ValidationError): string {
  const given = error.value === undefined ? 'missing' : `got ${JSON.stringify(error.value)}`;
  const rules = Object.values(error.constraints ?? {}).join(', ');
  return `${error.property} (${given}): ${rules}`;
}

/** Loads the configuration or ends the process with a message naming each bad variable. */
export function loadConfigOrExit<T extends object>(cls: Ctor<T>, service: string): T {
  try {
    return loadConfig(cls);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(
        `${JSON.stringify({ level: 'fatal', service, msg: 'configuration error', variables: err.variables, problems: err.problems })}\n`,
      );
      process.stderr.write(`${service}: cannot start: ${err.problems.join('; ')}\n`);
      process.exit(78);
    }
    throw err;
  }
}
