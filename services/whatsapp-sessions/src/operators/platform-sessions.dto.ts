import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, type TransformFnParams } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import type { ConnectionStatus } from '@wa/contracts';

export const CONNECTION_STATUSES: ConnectionStatus[] = ['OPENING', 'qrcode', 'PAIRING', 'CONNECTED', 'DISCONNECTED', 'TIMEOUT'];

/** A query string's number ("12" is 12); an empty one is no filter. */
const numeric = ({ value }: TransformFnParams) =>
  value === '' ? undefined : typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
const emptyIsNone = ({ value }: TransformFnParams) => (value === '' ? undefined : value);

/** `GET /platform/sessions`' filters and page. */
export class PlatformSessionsQueryDto {
  @ApiPropertyOptional({ description: "only this company's connections" })
  @IsOptional()
  @Transform(numeric)
  @IsInt()
  @Min(1)
  companyId?: number;

  @ApiPropertyOptional({ description: 'only the connections this replica holds' })
  @IsOptional()
  @Transform(emptyIsNone)
  @IsString()
  @MaxLength(200)
  replica?: string;

  @ApiPropertyOptional({ enum: CONNECTION_STATUSES })
  @IsOptional()
  @Transform(emptyIsNone)
  @IsIn(CONNECTION_STATUSES)
  status?: ConnectionStatus;

  @ApiPropertyOptional({ default: 1 })
  @IsOptional()
  @Transform(numeric)
  @IsInt()
  @Min(1)
  @Max(100_000)
  pageNumber?: number;
}
