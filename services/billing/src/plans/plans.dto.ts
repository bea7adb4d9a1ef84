import { ApiPropertyOptional, ApiProperty } from '@nestjs/swagger';
import type { CreatePlanRequest, RequestDto, UpdatePlanRequest } from '@wa/contracts';
import { TextField } from '@wa/server-kit';
import { IsBoolean, IsInt, IsNumber, IsOptional, Max, Min } from 'class-validator';

/** The most a plan counts (users, connections, queues); 0 is no limit. */
const COUNT_MAX = 100_000;

/** spec 02 §3 "Plan": name, counts (0: no limit; the form's default), price, flags (all default true). */
export class CreatePlanDto implements RequestDto<CreatePlanDto, CreatePlanRequest> {
  @ApiProperty({ minLength: 1, maxLength: 100 }) @TextField(1, 100) name: string;
  @ApiPropertyOptional({ default: 0, description: 'users a company may have (0: no limit)' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(COUNT_MAX)
  users?: number;
  @ApiPropertyOptional({ default: 0, description: 'connections (0: no limit)' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(COUNT_MAX)
  connections?: number;
  @ApiPropertyOptional({ default: 0, description: 'queues (0: no limit)' }) @IsOptional() @IsInt() @Min(0) @Max(COUNT_MAX) queues?: number;
  @ApiPropertyOptional({ default: 0, description: 'monthly price in BRL' })
  @IsOptional()
  @IsNumber({ maxDecimalPlaces: 2 })
  @Min(0)
  @Max(99_999_999)
  value?: number;
  @ApiPropertyOptional({ default: true }) @IsOptional() @IsBoolean() useCampaigns?: boolean;
  @ApiPropertyOptional({ default: true }) @IsOptional() @IsBoolean() useSchedules?: boolean;
  @ApiPropertyOptional({ default: true }) @IsOptional() @IsBoolean() useInternalChat?: boolean;
  @ApiPropertyOptional({ default: true }) @IsOptional() @IsBoolean() useExternalApi?: boolean;
  @ApiPropertyOptional({ default: true }) @IsOptional() @IsBoolean() useKanban?: boolean;
  @ApiPropertyOptional({ default: true }) @IsOptional() @IsBoolean() useOpenAi?: boolean;
  @ApiPropertyOptional({ default: true }) @IsOptional() @IsBoolean() useIntegrations?: boolean;
  @ApiPropertyOptional({ default: true, description: 'offered at sign-up' }) @IsOptional() @IsBoolean() isPublic?: boolean;
  @ApiPropertyOptional({ default: 7, description: 'free days of a company signing up on it' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(365)
  trialDays?: number;
}

export class UpdatePlanDto extends CreatePlanDto implements RequestDto<UpdatePlanDto, UpdatePlanRequest> {
  @ApiPropertyOptional({ minLength: 1, maxLength: 100 }) @TextField(1, 100, { optional: true }) declare name: string;
}
