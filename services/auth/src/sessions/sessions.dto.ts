import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import type { LoginRequest, RequestDto } from '@wa/contracts';
import { TextField } from '@wa/server-kit';

export class LoginDto implements RequestDto<LoginDto, LoginRequest> {
  @ApiProperty({ example: 'admin@admin.com' })
  @IsString({ message: 'Required' })
  @IsNotEmpty({ message: 'Required' })
  @MaxLength(200)
  email: string;

  @ApiProperty({ example: '123456' })
  @IsString({ message: 'Required' })
  @IsNotEmpty({ message: 'Required' })
  @MaxLength(200)
  password: string;

  /** Only for a user who must set their own password first (answered ERR_PASSWORD_CHANGE_REQUIRED). */
  @ApiPropertyOptional({ minLength: 5, maxLength: 50 })
  @TextField(5, 50, { optional: true })
  newPassword?: string;
}
