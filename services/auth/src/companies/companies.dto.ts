import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Omittable, PageNumberField, TextField } from '@wa/server-kit';
import type { CompaniesQuery, CreateCompanyRequest, RequestDto, UpdateCompanyRequest } from '@wa/contracts';
import { IsBoolean, IsEmail, IsIn, IsInt, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';

/** How a company's due date moves on at renewal (the form's choices). */
export const RECURRENCES = ['MENSAL', 'BIMESTRAL', 'TRIMESTRAL', 'SEMESTRAL', 'ANUAL'] as const;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** spec 02 §3 "Company" and §5: email and plan required. */
export class CreateCompanyDto implements RequestDto<CreateCompanyDto, CreateCompanyRequest> {
  @ApiProperty({ minLength: 2, maxLength: 100 }) @TextField(2, 100) name: string;
  @ApiProperty({ description: 'the company’s email; its first admin signs in with it' })
  @IsEmail({}, { message: 'Invalid email' })
  @MaxLength(200)
  email: string;
  @ApiProperty() @IsInt({ message: 'Required' }) planId: number;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(50) phone?: string;
  @ApiPropertyOptional({ default: true }) @IsOptional() @IsBoolean() status?: boolean;
  @ApiPropertyOptional({ description: 'YYYY-MM-DD; default: today plus the plan’s trial days' })
  @IsOptional()
  @Matches(DATE, { message: 'Invalid date' })
  dueDate?: string;
  @ApiPropertyOptional({ enum: RECURRENCES, default: 'MENSAL' }) @IsOptional() @IsIn(RECURRENCES) recurrence?: string;
  @ApiPropertyOptional({ default: true, description: 'stored as the company setting campaignsEnabled' })
  @IsOptional()
  @IsBoolean()
  campaignsEnabled?: boolean;
  @ApiPropertyOptional({ description: 'the first admin’s password (5–50); without it they choose one through “forgot password”' })
  @IsOptional()
  @IsString()
  @MinLength(5, { message: 'Too Short!' })
  @MaxLength(50, { message: 'Too Long!' })
  password?: string;
}

export class UpdateCompanyDto implements RequestDto<UpdateCompanyDto, UpdateCompanyRequest> {
  @ApiPropertyOptional() @TextField(2, 100, { optional: true }) name?: string;
  @ApiPropertyOptional() @Omittable() @IsEmail({}, { message: 'Invalid email' }) @MaxLength(200) email?: string;
  @ApiPropertyOptional() @Omittable() @IsInt({ message: 'Required' }) planId?: number;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(50) phone?: string;
  @ApiPropertyOptional({ description: 'false: its users are signed out at once and cannot sign in' })
  @Omittable()
  @IsBoolean()
  status?: boolean;
  @ApiPropertyOptional() @Omittable() @Matches(DATE, { message: 'Invalid date' }) dueDate?: string;
  @ApiPropertyOptional({ enum: RECURRENCES }) @Omittable() @IsIn(RECURRENCES) recurrence?: string;
  @ApiPropertyOptional() @Omittable() @IsBoolean() campaignsEnabled?: boolean;
}

export class ListCompaniesQuery implements RequestDto<ListCompaniesQuery, CompaniesQuery> {
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(100) searchParam?: string;
  @ApiPropertyOptional() @PageNumberField() pageNumber?: number;
}
