import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { AccessTokenClaims } from '@wa/contracts';
import { DomainError } from '@wa/server-kit';
import { from, switchMap, type Observable } from 'rxjs';
import { CallerService } from '../../identity/caller.service.js';
import { TicketsRepository } from '../core/tickets.repository.js';
import { assertCanSee } from '../core/visibility.js';

/**
 * Before an upload's first byte is read: the ticket of the route (`:ticketId`) must exist in the caller's
 * company and be one the caller may write to, else 404 / 403 at once, and the body is never read (multer,
 * listed after this, writes no temporary file; nothing reaches the media storage). The send checks it again.
 */
@Injectable()
export class WritableTicketInterceptor implements NestInterceptor {
  constructor(
    private readonly callers: CallerService,
    private readonly tickets: TicketsRepository,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context
      .switchToHttp()
      .getRequest<{ user: AccessTokenClaims; params: Record<string, string>; headers: Record<string, string | undefined> }>();
    if (!/^multipart\//i.test(req.headers['content-type'] ?? '')) return next.handle();
    return from(this.check(req.user, req.params.ticketId)).pipe(switchMap(() => next.handle()));
  }

  private async check(claims: AccessTokenClaims, ticketParam: string | undefined): Promise<void> {
    const ticketId = Number(ticketParam);
    if (!Number.isSafeInteger(ticketId) || ticketId <= 0) throw new DomainError('ERR_NO_TICKET_FOUND');
    const caller = await this.callers.of(claims);
    const row = await this.tickets.findById(caller.companyId, ticketId);
    if (!row) throw new DomainError('ERR_NO_TICKET_FOUND');
    assertCanSee(caller, row);
  }
}
