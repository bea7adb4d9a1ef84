import { Injectable, type PipeTransform } from '@nestjs/common';
import { CurrentUser } from '@wa/auth';
import type { AccessTokenClaims } from '@wa/contracts';
import { CallerService, type Caller } from './caller.service.js';

/** Turns the verified token's claims into the caller as the user directory has them now (CallerService.of). */
@Injectable()
export class CallerPipe implements PipeTransform<AccessTokenClaims, Promise<Caller>> {
  constructor(private readonly callers: CallerService) {}

  transform(claims: AccessTokenClaims): Promise<Caller> {
    return this.callers.of(claims);
  }
}

/**
 * The user a request comes from, with their current profile and queues: `@CurrentCaller() caller: Caller` in a
 * controller's handler. The token's claims (`@CurrentUser()`) go through CallerPipe, so the lookup is the one
 * `callers.of(claims)` made, once per request that asks for it.
 */
export const CurrentCaller = (): ParameterDecorator => CurrentUser(CallerPipe);
