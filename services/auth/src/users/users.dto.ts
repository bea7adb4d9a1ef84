import { ApiProperty, ApiPropertyOptional, OmitType, PartialType } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsEmail, IsIn, IsInt, IsNotEmpty, IsOptional, IsString, MaxLength, Min, ValidateIf } from 'class-validator';
import type { AllTicket, CreateUserRequest, Profile, RequestDto, UpdateUserRequest, UsersQuery } from '@wa/contracts';
import { MAX_PAGE_NUMBER, NameField, PageNumberField, TextField } from '@wa/server-kit';

const PROFILES: Profile[] = ['admin', 'user', 'supervisor'];
const ALL_TICKET: AllTicket[] = ['enabled', 'desabled'];

/** Spec 01 §5: name 2–50, password 5–50, email required and valid (messages as the forms show them). */
class UserFields {
  @ApiProperty({ minLength: 2, maxLength: 50 })
  @NameField()
  name: string;

  @ApiProperty()
  @IsString({ message: 'Required' })
  @IsNotEmpty({ message: 'Required' })
  @IsEmail({}, { message: 'Invalid email' })
  @MaxLength(200, { message: 'Too Long!' })
  email: string;

  @ApiPropertyOptional({ enum: PROFILES })
  @IsOptional()
  @IsIn(PROFILES)
  profile?: Profile;

  @ApiPropertyOptional({ enum: ALL_TICKET })
  @IsOptional()
  @IsIn(ALL_TICKET)
  allTicket?: AllTicket;

  @ApiPropertyOptional({ nullable: true })
  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsInt()
  whatsappId?: number | null;

  @ApiPropertyOptional({ type: [Number] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(500)
  @IsInt({ each: true })
  @Min(1, { each: true })
  queueIds?: number[];

  /** Super users only: create the user in another company. */
  @ApiPropertyOptional()
  @IsOptional()
  @IsInt()
  companyId?: number;
}

export class CreateUserDto extends UserFields implements RequestDto<CreateUserDto, CreateUserRequest> {
  @ApiProperty({ minLength: 5, maxLength: 50 })
  @TextField(5, 50)
  password: string;
}

/** Every field may be left out; an empty password keeps the current one (the edit form sends it blank). */
export class UpdateUserDto
  extends PartialType(OmitType(CreateUserDto, ['password', 'companyId'] as const))
  implements RequestDto<UpdateUserDto, UpdateUserRequest>
{
  @ApiPropertyOptional({ minLength: 5, maxLength: 50 })
  @IsOptional()
  @ValidateIf((_o, v) => v !== '')
  @TextField(5, 50)
  password?: string;

  /** Required to change one's own password (an admin setting another user's does not give it). */
  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(200)
  oldPassword?: string;
}

export class ListUsersQuery implements RequestDto<ListUsersQuery, UsersQuery> {
  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(100)
  searchParam?: string;

  @ApiPropertyOptional({ default: 1, maximum: MAX_PAGE_NUMBER })
  @PageNumberField()
  pageNumber?: number;
}
