import { applyDecorators } from '@nestjs/common';
import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min, MinLength, ValidateIf } from 'class-validator';

/**
 * A field an edit may leave out, but not send as null: unlike `IsOptional`, which skips null too (and lets a
 * null reach code that expects a text), a null is validated like any value and refused.
 */
export function Omittable(): PropertyDecorator {
  return ValidateIf((_o, value) => value !== undefined);
}

/**
 * A text field with the forms' messages (spec 01 §5): `Required`, `Too Short!`, `Too Long!`.
 * Names are 2–50 everywhere (users, contacts, queues, connections); passwords 5–50.
 */
export function TextField(min: number, max: number, opts: { optional?: boolean } = {}): PropertyDecorator {
  return applyDecorators(
    ...(opts.optional ? [Omittable()] : []),
    IsString({ message: 'Required' }),
    IsNotEmpty({ message: 'Required' }),
    MinLength(min, { message: 'Too Short!' }),
    MaxLength(max, { message: 'Too Long!' }),
  );
}

export const NameField = (opts: { optional?: boolean } = {}) => TextField(2, 50, opts);

/** The deepest page a list serves by number (deeper: the cursor); a larger pageNumber answers 400. */
export const MAX_PAGE_NUMBER = 10_000;

/** `pageNumber` of every paged list: an optional integer from 1 to MAX_PAGE_NUMBER. */
export function PageNumberField(): PropertyDecorator {
  return applyDecorators(
    IsOptional(),
    Type(() => Number),
    IsInt(),
    Min(1),
    Max(MAX_PAGE_NUMBER),
  );
}

/**
 * An optional flag as the original product's web client sends it: `true`/`false`, or `1`/`0` (it sends
 * `read: 1`). Anything else (`"yes"`, `2`, an object) is still refused.
 */
export function FlagField(): PropertyDecorator {
  return applyDecorators(
    IsOptional(),
    Transform(({ value }) =>
      value === 1 || value === '1' || value === 'true' ? true : value === 0 || value === '0' || value === 'false' ? false : value,
    ),
    IsBoolean(),
  );
}
