import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import type { LoginRequest } from '@wa/contracts';

export class LoginDto implements LoginRequest {
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
}
