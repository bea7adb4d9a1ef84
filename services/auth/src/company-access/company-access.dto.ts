import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** A page of billing's copy holds at most this many companies. */
export const BILLING_COPY_MAX = 1000;
export const BILLING_COPY_DEFAULT = 500;

/** `GET /internal/companies/billing?afterId&limit`: the companies whose id is above afterId, by id. */
export class BillingCopyQuery {
  @ApiPropertyOptional({ default: 0 }) @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(2_147_483_647) afterId?: number;
  @ApiPropertyOptional({ default: BILLING_COPY_DEFAULT, maximum: BILLING_COPY_MAX })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(BILLING_COPY_MAX)
  limit?: number;
}
