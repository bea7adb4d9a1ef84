import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { DomainError } from './domain-error.js';
import { rememberValidationRules } from './validation-metadata.js';

function flatten(errors: ValidationError[], prefix = ''): Array<{ field: string; messages: string[] }> {
  return errors.flatMap((e) => {
    const field = prefix ? `${prefix}.${e.property}` : e.property;
    const own = e.constraints ? [{ field, messages: Object.values(e.constraints) }] : [];
    return [...own, ...flatten(e.children ?? [], field)];
  });
}

/**
 * Global pipe: strips unknown fields, converts types, answers ERR_VALIDATION with each field's messages. Each class's
 * rules are resolved once (rememberValidationRules), not for every object validated.
 */
export function createValidationPipe(): ValidationPipe {
  rememberValidationRules();
  return new ValidationPipe({
    whitelist: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    exceptionFactory: (errors) => {
      const details = flatten(errors);
      const message = details.map((d) => `${d.field}: ${d.messages.join(', ')}`).join('; ');
      return new DomainError('ERR_VALIDATION', { details }, message);
    },
  });
}
