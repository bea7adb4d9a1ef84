import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsEmail, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import type { RequestDto, SignupRequest } from '@wa/contracts';
import { NameField, TextField } from '@wa/server-kit';

/** The sign-up form (spec 01 §2 /signup): the company's name (also its admin's), email, phone, password, plan. */
export class SignupDto implements RequestDto<SignupDto, SignupRequest> {
  @ApiProperty({ minLength: 2, maxLength: 50 }) @NameField() name: string;

  @ApiProperty()
  @IsString({ message: 'Required' })
  @IsNotEmpty({ message: 'Required' })
  @IsEmail({}, { message: 'Invalid email' })
  @MaxLength(200, { message: 'Too Long!' })
  email: string;

  @ApiProperty({ minLength: 5, maxLength: 50 }) @TextField(5, 50) password: string;

  @ApiPropertyOptional({ maxLength: 30 }) @IsOptional() @IsString() @MaxLength(30) phone?: string;

  @ApiProperty()
  @Type(() => Number)
  @IsInt({ message: 'Required' })
  @Min(1, { message: 'Required' })
  @Max(2_147_483_647)
  planId: number;
}
