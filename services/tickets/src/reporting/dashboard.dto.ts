import { ApiPropertyOptional } from '@nestjs/swagger';
import type { DashboardChartQuery, DashboardQuery, RequestDto } from '@wa/contracts';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

/** spec 01 §7: GET /dashboard with `days`, or `date_from` and `date_to` (YYYY-MM-DD, the company's days). */
export class DashboardQueryDto implements RequestDto<DashboardQueryDto, DashboardQuery> {
  @ApiPropertyOptional({ description: 'the last N days, today included (3, 7, 15, 30, 60 or 90 in the app)' })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'Parametrize o filtro' })
  @Min(1, { message: 'Parametrize o filtro' })
  @Max(366)
  days?: number;

  @ApiPropertyOptional({ example: '2026-11-01' }) @IsOptional() @IsString() @MaxLength(10) date_from?: string;
  @ApiPropertyOptional({ example: '2026-11-24' }) @IsOptional() @IsString() @MaxLength(10) date_to?: string;
}

/** GET /dashboard/ticketsUsers and /dashboard/ticketsDay: `initialDate`, `finalDate` (YYYY-MM-DD). */
export class DashboardChartQueryDto implements RequestDto<DashboardChartQueryDto, DashboardChartQuery> {
  @ApiPropertyOptional({ example: '2026-11-01' }) @IsOptional() @IsString() @MaxLength(10) initialDate?: string;
  @ApiPropertyOptional({ example: '2026-11-24' }) @IsOptional() @IsString() @MaxLength(10) finalDate?: string;
  /** sent by the product's client; the company is the caller's */
  @ApiPropertyOptional() @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(2_147_483_647) companyId?: number;
}
