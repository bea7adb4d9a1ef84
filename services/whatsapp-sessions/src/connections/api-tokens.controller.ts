import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { InternalOnly } from '@wa/auth';
import type { ApiTokenOwner, RequestDto, ResolveApiTokenRequest } from '@wa/contracts';
import { DomainError } from '@wa/server-kit';
import { IsString, MaxLength, MinLength } from 'class-validator';
import { ConnectionTokens } from './connection-tokens.js';

export class ResolveApiTokenDto implements RequestDto<ResolveApiTokenDto, ResolveApiTokenRequest> {
  @IsString()
  @MinLength(1)
  @MaxLength(500)
  token!: string;
}

/**
 * Whose is a connection's API token (the public messages API's bearer): only other services ask
 * (tickets, which serves that API). The token is looked up by its HMAC; it is never stored in clear.
 */
@ApiExcludeController()
@Controller('internal/api-tokens')
export class ApiTokensController {
  constructor(private readonly tokens: ConnectionTokens) {}

  @InternalOnly()
  @Post('resolve')
  @HttpCode(200)
  async resolve(@Body() body: ResolveApiTokenDto): Promise<ApiTokenOwner> {
    const c = await this.tokens.owner(body.token);
    if (!c) throw new DomainError('ERR_UNAUTHENTICATED');
    return { connectionId: c.id, companyId: c.companyId, status: c.status };
  }
}
