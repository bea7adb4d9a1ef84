import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { CreateNoteRequest, NotesQuery, RequestDto } from '@wa/contracts';
import { Type } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { PageNumberField, TextField } from '@wa/server-kit';

const MAX_ID = 2_147_483_647;

/** spec 01 §5: a note is required, at least 2 characters. */
export class CreateNoteDto implements RequestDto<CreateNoteDto, CreateNoteRequest> {
  @ApiProperty({ minLength: 2, maxLength: 10_000 }) @TextField(2, 10_000) note: string;
  @ApiProperty() @Type(() => Number) @IsInt({ message: 'Required' }) @Min(1) @Max(MAX_ID) ticketId: number;
  @ApiProperty() @Type(() => Number) @IsInt({ message: 'Required' }) @Min(1) @Max(MAX_ID) contactId: number;
}

export class ListNotesQueryDto implements RequestDto<ListNotesQueryDto, NotesQuery> {
  @ApiProperty() @Type(() => Number) @IsInt({ message: 'Required' }) @Min(1) @Max(MAX_ID) ticketId: number;
  @ApiProperty() @Type(() => Number) @IsInt({ message: 'Required' }) @Min(1) @Max(MAX_ID) contactId: number;
  @ApiPropertyOptional({ default: 1 }) @PageNumberField() pageNumber?: number;
}
