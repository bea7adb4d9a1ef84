import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { CreateTagRequest, RequestDto, SyncTagsRequest, TagsQuery, UpdateTagRequest } from '@wa/contracts';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { Omittable, PageNumberField } from '@wa/server-kit';

const COLOR = /^#[0-9a-fA-F]{3,8}$|^[a-z]{3,20}$/;

/** spec 02 §5: the name is required ("Obrigatório"), at least 3 characters ("Mensagem muito curta"). */
export class CreateTagDto implements RequestDto<CreateTagDto, CreateTagRequest> {
  @ApiProperty({ minLength: 3, maxLength: 100 })
  @IsString({ message: 'Obrigatório' })
  @IsNotEmpty({ message: 'Obrigatório' })
  @MinLength(3, { message: 'Mensagem muito curta' })
  @MaxLength(100)
  name: string;

  @ApiPropertyOptional({ example: '#A4CCCC' }) @IsOptional() @IsString() @Matches(COLOR) color?: string;
  @ApiPropertyOptional({ enum: [0, 1] }) @IsOptional() @IsIn([0, 1]) kanban?: number;
}

export class UpdateTagDto implements RequestDto<UpdateTagDto, UpdateTagRequest> {
  @ApiPropertyOptional({ minLength: 3, maxLength: 100 })
  @Omittable()
  @IsString({ message: 'Obrigatório' })
  @IsNotEmpty({ message: 'Obrigatório' })
  @MinLength(3, { message: 'Mensagem muito curta' })
  @MaxLength(100)
  name?: string;

  @ApiPropertyOptional() @IsOptional() @IsString() @Matches(COLOR) color?: string;
  @ApiPropertyOptional({ enum: [0, 1] }) @IsOptional() @IsIn([0, 1]) kanban?: number;
}

export class ListTagsQueryDto implements RequestDto<ListTagsQueryDto, TagsQuery> {
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(100) searchParam?: string;
  @ApiPropertyOptional({ default: 1 }) @PageNumberField() pageNumber?: number;
}

class TagRefDto {
  @ApiProperty() @Type(() => Number) @IsInt() @Min(1) @Max(2_147_483_647) id: number;
}

/** `POST /tags/sync`: the ticket's tags become exactly these. */
export class SyncTagsDto implements RequestDto<SyncTagsDto, SyncTagsRequest> {
  @ApiProperty() @Type(() => Number) @IsInt() @Min(1) @Max(2_147_483_647) ticketId: number;
  @ApiProperty({ type: [TagRefDto] }) @IsArray() @ArrayMaxSize(50) @ValidateNested({ each: true }) @Type(() => TagRefDto) tags: TagRefDto[];
}
