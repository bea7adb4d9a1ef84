import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { Type } from 'class-transformer';
import { IsInt, IsString, MaxLength, Min, ValidateNested, getMetadataStorage } from 'class-validator';
import { DomainError } from './domain-error.js';
import { createValidationPipe } from './validation.js';
import { rememberValidationRules } from './validation-metadata.js';

class Base {
  @IsString({ message: 'Required' }) name!: string;
}

class Item extends Base {
  @IsInt({ message: 'qty must be an integer' }) @Min(1, { message: 'qty must be at least 1' }) qty!: number;
}

class Order {
  @ValidateNested({ each: true }) @Type(() => Item) items!: Item[];
}

const pipe = createValidationPipe();

/** What the global pipe answers for `body` as `metatype`: the value passed on, or the ERR_VALIDATION's fields. */
async function answer(metatype: new () => object, body: unknown): Promise<{ value?: unknown; fields?: string[] }> {
  try {
    return { value: await pipe.transform(structuredClone(body), { type: 'body', metatype, data: '' }) };
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    const details = (err.extra as { details: Array<{ field: string; messages: string[] }> }).details;
    return { fields: details.map((d) => `${d.field}: ${d.messages.join(', ')}`) };
  }
}

describe('each class’s validation rules resolved once', () => {
  it('answers every object of a batch by its own and its parent’s rules, again and again', async () => {
    for (let round = 0; round < 3; round++) {
      expect(await answer(Order, { items: [{ name: 'a', qty: 2, extra: 'x' }, { qty: 0 }] })).toEqual({
        fields: ['items.1.qty: qty must be at least 1', 'items.1.name: Required'],
      });
      const ok = await answer(Order, { items: [{ name: 'a', qty: 2, extra: 'x' }] });
      // unknown fields are still stripped: the remembered grouping is the whitelist
      expect(ok.value).toEqual({ items: [{ name: 'a', qty: 2 }] });
      expect((ok.value as Order).items[0]).toBeInstanceOf(Item);
    }
  });

  it('a rule added to a class after it was validated applies from then on', async () => {
    class Note {
      @IsString({ message: 'Required' }) text!: string;
    }
    expect(await answer(Note, { text: 'x'.repeat(20) })).toEqual({ value: { text: 'x'.repeat(20) } });
    MaxLength(10, { message: 'Too Long!' })(Note.prototype, 'text');
    expect(await answer(Note, { text: 'x'.repeat(20) })).toEqual({ fields: ['text: Too Long!'] });
  });

  it('a class defined after others were validated gets its own and inherited rules', async () => {
    expect(await answer(Item, { name: 'a', qty: 1 })).toEqual({ value: { name: 'a', qty: 1 } });
    class Late extends Item {
      @IsString({ message: 'code is required' }) code!: string;
    }
    const { fields } = await answer(Late, { qty: 'no' });
    expect(fields?.map((f) => f.split(':')[0]).sort()).toEqual(['code', 'name', 'qty']);
    expect(fields).toContain('code: code is required');
    expect(await answer(Late, { name: 'a', qty: 1, code: 'c' })).toEqual({ value: { name: 'a', qty: 1, code: 'c' } });
  });

  it('keeps one answer per class and options, and is installed once', () => {
    const storage = getMetadataStorage();
    rememberValidationRules(storage);
    const first = storage.getTargetValidationMetadatas(Item, '', false, false);
    expect(storage.getTargetValidationMetadatas(Item, '', false, false)).toBe(first);
    expect(storage.groupByPropertyName(first)).toBe(storage.groupByPropertyName(first));
    expect(Object.keys(storage.groupByPropertyName(first)).sort()).toEqual(['name', 'qty']);
    // other options are another answer: a rule of a group only
    expect(storage.getTargetValidationMetadatas(Item, '', false, false, ['g'])).not.toBe(first);
  });
});
