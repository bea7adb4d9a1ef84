import { applyDecorators } from '@nestjs/common';
import { IsNotEmpty, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';

/**
 * A text field with the forms' messages (spec 01 §5): `Required`, `Too Short!`, `Too Long!`.
 * Names are 2–50 everywhere (users, contacts, queues, connections); passwords 5–50.
 */
export function TextField(min: number, max: number, opts: { optional?: boolean } = {}): PropertyDecorator {
  return applyDecorators(
    ...(opts.optional ? [IsOptional()] : []),
    IsString({ message: 'Required' }),
    IsNotEmpty({ message: 'Required' }),
    MinLength(min, { message: 'Too Short!' }),
    MaxLength(max, { message: 'Too Long!' }),
  );
}

export const NameField = (opts: { optional?: boolean } = {}) => TextField(2, 50, opts);
