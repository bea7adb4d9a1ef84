import { ApiPropertyOptional } from '@nestjs/swagger';
import { PageNumberField } from '@wa/server-kit';
import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsInt, IsOptional, IsString, MaxLength, Min } from 'class-validator';

/** `GET /invoices/all` (spec 02 §7). */
export class ListInvoicesQueryDto {
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(200) searchParam?: string;
  @ApiPropertyOptional({ default: 1 }) @PageNumberField() pageNumber?: number;
  @ApiPropertyOptional({ description: 'super users: one company’s invoices' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  companyId?: number;
}

/** `GET /invoices/next?companyIds=1,2,3` (super users; one page of the companies list). */
export class NextInvoicesQueryDto {
  @ApiPropertyOptional({ description: 'comma-separated company ids, at most 100' })
  @Transform(({ value }) => (typeof value === 'string' ? value.split(',').filter(Boolean).map(Number) : value))
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @IsInt({ each: true })
  @Min(1, { each: true })
  companyIds: number[];
}
