import { describe, expect, it } from '@jest/globals';
import { DomainError } from '@wa/server-kit';
import { creationFailed } from './creation-failed.js';

const pgError = (code: string) => Object.assign(new Error('refused'), { code });
const typeormError = (code: string) => Object.assign(new Error('query failed'), { driverError: pgError(code) });

describe('creationFailed', () => {
  it('answers the creation code for a row PostgreSQL refused (integrity or data), bare or wrapped by TypeORM', () => {
    for (const err of [pgError('23503'), typeormError('23503'), typeormError('23502'), pgError('22001')]) {
      const answer = creationFailed(err, 'ERR_CREATING_MESSAGE');
      expect(answer).toBeInstanceOf(DomainError);
      expect((answer as DomainError).code).toBe('ERR_CREATING_MESSAGE');
    }
    expect((creationFailed(typeormError('23503'), 'ERR_CREATING_TICKET') as DomainError).code).toBe('ERR_CREATING_TICKET');
  });

  it('leaves an outage, a domain error and anything else as they are', () => {
    const outage = typeormError('57P01');
    const connection = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const domain = new DomainError('ERR_NO_TICKET_FOUND');
    const bug = new TypeError('x is undefined');
    for (const err of [outage, connection, domain, bug, pgError('42P01')]) expect(creationFailed(err, 'ERR_CREATING_TICKET')).toBe(err);
  });
});
