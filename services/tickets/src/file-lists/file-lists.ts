import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Injectable,
  Param,
  ParseIntPipe,
  Post,
  Put,
  Query,
  UploadedFiles,
  UseInterceptors,
} from '@nestjs/common';
import { FilesInterceptor } from '@nestjs/platform-express';
import { ApiBody, ApiConsumes, ApiProperty, ApiPropertyOptional, ApiResponse, ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import { AdminOnly } from '@wa/auth';
import {
  TicketSubjects,
  type CreateFileListRequest,
  type FileListDto,
  type FileListEvent,
  type FileListsPage,
  type FileListsQuery,
  type RequestDto,
  type UpdateFileListRequest,
  type UploadFileListRequest,
} from '@wa/contracts';
import { isUniqueViolation, likeEscaped } from '@wa/database';
import {
  checkMediaFile,
  DiscardUploadsInterceptor,
  DomainError,
  dropFiles,
  isMediaKey,
  MediaStorage,
  mediaUploadOptions,
  newMediaKey,
  Omittable,
  PageNumberField,
  readUploaded,
  type CheckedMedia,
  type UploadedDiskFile,
  invalidField,
} from '@wa/server-kit';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import type { Caller } from '../identity/caller.service.js';
import { CurrentCaller } from '../identity/current-caller.js';
import { Outbox } from '../outbox/outbox.service.js';
import {
  DELETE_FILE_LIST,
  DELETE_OPTIONS,
  INSERT_FILE_LISTS,
  INSERT_FILE_LIST_OPTIONS,
  LOCK_OPTIONS_OF_LIST,
  RENAME_OPTIONS,
  SELECT_OPTIONS_OF_LIST,
  SELECT_OPTIONS_OF_LISTS,
  SELECT_OPTION_FILES_OF_LIST,
  SET_OPTION_FILES,
  TOUCH_FILE_LIST,
  UPDATE_FILE_LIST,
  fileListSql,
  fileListsPageSql,
} from './file-lists.queries.js';

export const FILE_LISTS_PAGE_SIZE = 20;
/** Options of one list, and files of one upload. */
export const FILE_LIST_MAX_OPTIONS = 20;
/** spec 02 §5 "File list": the name's and the message's refusals. */
const NAME_SHORT = 'nome muito curto';
const REQUIRED = 'Obrigatório';

class FileListOptionBody {
  @ApiPropertyOptional({ description: 'an option the list has (kept, with its file); none: a new option' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(2_147_483_647)
  id?: number;
  @ApiProperty({ maxLength: 100 })
  @IsString({ message: REQUIRED })
  @IsNotEmpty({ message: REQUIRED })
  @MaxLength(100, { message: 'Too Long!' })
  name: string;
}

export class CreateFileListDto implements RequestDto<CreateFileListDto, CreateFileListRequest> {
  @ApiProperty({ minLength: 3, maxLength: 100 })
  @IsString({ message: REQUIRED })
  @MinLength(3, { message: NAME_SHORT })
  @MaxLength(100, { message: 'Too Long!' })
  name: string;
  @ApiProperty({ maxLength: 10_000 })
  @IsString({ message: REQUIRED })
  @IsNotEmpty({ message: REQUIRED })
  @MaxLength(10_000, { message: 'Too Long!' })
  message: string;
  @ApiPropertyOptional({ type: [FileListOptionBody] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(FILE_LIST_MAX_OPTIONS)
  @ValidateNested({ each: true })
  @Type(() => FileListOptionBody)
  options?: FileListOptionBody[];
  /** the product's client sends its user; the author is the caller whatever it says */
  @ApiPropertyOptional() @IsOptional() userId?: unknown;
}

export class UpdateFileListDto implements RequestDto<UpdateFileListDto, UpdateFileListRequest> {
  @ApiPropertyOptional()
  @Omittable()
  @IsString({ message: REQUIRED })
  @MinLength(3, { message: NAME_SHORT })
  @MaxLength(100, { message: 'Too Long!' })
  name?: string;
  @ApiPropertyOptional()
  @Omittable()
  @IsString({ message: REQUIRED })
  @IsNotEmpty({ message: REQUIRED })
  @MaxLength(10_000, { message: 'Too Long!' })
  message?: string;
  @ApiPropertyOptional({
    type: [FileListOptionBody],
    description: 'the options the list keeps, in order: those not named are deleted with their files',
  })
  @Omittable()
  @IsArray()
  @ArrayMaxSize(FILE_LIST_MAX_OPTIONS)
  @ValidateNested({ each: true })
  @Type(() => FileListOptionBody)
  options?: FileListOptionBody[];
  @ApiPropertyOptional() @IsOptional() userId?: unknown;
}

export class ListFileListsQuery implements RequestDto<ListFileListsQuery, FileListsQuery> {
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(100) searchParam?: string;
  @ApiPropertyOptional() @PageNumberField() pageNumber?: number;
  /** the product's client sends it; the company is the caller's */
  @ApiPropertyOptional() @IsOptional() companyId?: unknown;
}

const asList = ({ value }: { value: unknown }) => (value === undefined ? undefined : Array.isArray(value) ? value : [value]);

/** `POST /files/uploadList/{id}` (multipart): per file, in order, the option it is for (`id`) and, as sent, its `mediaType`. */
export class UploadListBody implements RequestDto<UploadListBody, UploadFileListRequest> {
  @ApiProperty({ type: [Number], description: 'for each file, in order, the option it belongs to' })
  @Transform(asList)
  @IsArray({ message: 'each file needs the id of its option' })
  @ArrayMaxSize(FILE_LIST_MAX_OPTIONS)
  @Type(() => Number)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(2_147_483_647, { each: true })
  id: number[];
  /** what the client says the files are; their bytes decide */
  @ApiPropertyOptional()
  @IsOptional()
  @Transform(asList)
  @IsArray()
  @IsString({ each: true })
  @MaxLength(150, { each: true })
  mediaType?: string[];
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(50) typeArch?: string;
  @ApiPropertyOptional() @IsOptional() @Transform(asList) fileId?: unknown;
  @ApiPropertyOptional() @IsOptional() @Transform(asList) name?: unknown;
}

interface ListRow {
  id: number;
  companyId: number;
  name: string;
  message: string;
  userId: number | null;
  createdAt: Date;
  updatedAt: Date;
}
interface OptionRow {
  id: number;
  fileListId: number;
  name: string;
  path: string | null;
  mediaType: string | null;
}

const notFound = () => new DomainError('ERR_NOT_FOUND', {}, 'File list not found.');
const nameTaken = () => invalidField('name', 'A file list with this name already exists');

/**
 * File lists (spec 02 "Files"): a company's named sets of files with a message, each option a name and a file
 * uploaded to it (checked by its bytes and limited like the chat's media). Everyone of the company reads them
 * (campaigns pick one); admins write them. A change goes out through the outbox (`files.*`) to the company's
 * sockets; a file no option names any longer is removed after the commit.
 */
@Injectable()
export class FileListsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly outbox: Outbox,
    private readonly storage: MediaStorage,
  ) {}

  async page(caller: Caller, q: ListFileListsQuery): Promise<FileListsPage> {
    const pageNumber = q.pageNumber ?? 1;
    const search = q.searchParam?.trim().toLowerCase();
    const params: unknown[] = [caller.companyId, (pageNumber - 1) * FILE_LISTS_PAGE_SIZE];
    if (search) params.push(`%${likeEscaped(search)}%`);
    const rows = (await this.db.query(fileListsPageSql(Boolean(search), FILE_LISTS_PAGE_SIZE), params)) as Array<
      ListRow & { total: string }
    >;
    const count = Number(rows[0]?.total ?? 0);
    return { files: await this.views(this.db.manager, rows), count, hasMore: pageNumber * FILE_LISTS_PAGE_SIZE < count };
  }

  async get(caller: Caller, id: number): Promise<FileListDto> {
    return (await this.views(this.db.manager, [await this.find(this.db.manager, caller, id)]))[0] as FileListDto;
  }

  async create(caller: Caller, dto: CreateFileListDto): Promise<FileListDto> {
    const { name, message } = this.texts(dto.name, dto.message);
    const options = this.optionNames(dto.options ?? []);
    if (options.some((o) => o.id !== undefined)) throw invalidField('options', 'A new list’s options have no id yet.');
    return this.write(async (tx) => {
      const [list] = (await tx.query(INSERT_FILE_LISTS, [caller.companyId, name as string, message as string, caller.id])) as ListRow[];
      await this.insertOptions(
        tx,
        list as ListRow,
        options.map((o, i) => ({ name: o.name, position: i })),
      );
      return { list: list as ListRow, dropped: [] };
    });
  }

  async update(caller: Caller, id: number, dto: UpdateFileListDto): Promise<FileListDto> {
    const { name, message } = this.texts(dto.name, dto.message);
    const options = dto.options === undefined ? undefined : this.optionNames(dto.options);
    return this.write(async (tx) => {
      const list = await this.find(tx, caller, id, true);
      const dropped: string[] = [];
      if (options) {
        const current = (await tx.query(SELECT_OPTIONS_OF_LIST, [list.id, list.companyId])) as OptionRow[];
        const byId = new Map(current.map((o) => [o.id, o]));
        for (const o of options)
          if (o.id !== undefined && !byId.has(o.id)) throw invalidField('options', `Option ${o.id} is not one of this list’s.`);
        const listed = options.flatMap((o, position) => (o.id === undefined ? [] : [{ id: o.id, name: o.name, position }]));
        const kept = new Set(listed.map((o) => o.id));
        const gone = current.filter((o) => !kept.has(o.id));
        if (gone.length) await tx.query(DELETE_OPTIONS, [gone.map((o) => o.id), list.companyId]);
        dropped.push(...gone.flatMap((o) => (o.path && isMediaKey(o.path) ? [o.path] : [])));
        if (listed.length) {
          await tx.query(RENAME_OPTIONS, [
            listed.map((o) => o.id),
            listed.map((o) => o.name),
            listed.map((o) => o.position),
            list.companyId,
          ]);
        }
        await this.insertOptions(
          tx,
          list,
          options.flatMap((o, position) => (o.id === undefined ? [{ name: o.name, position }] : [])),
        );
      }
      // UPDATE answers [rows, count]
      const [[saved]] = (await tx.query(UPDATE_FILE_LIST, [list.id, name ?? null, message ?? null, list.companyId])) as [ListRow[], number];
      return { list: saved as ListRow, dropped };
    });
  }

  async remove(caller: Caller, id: number): Promise<void> {
    const { ids, files } = await this.db.transaction(async (tx) => {
      const list = await this.find(tx, caller, id, true);
      const options = (await tx.query(SELECT_OPTION_FILES_OF_LIST, [list.id, list.companyId])) as Array<{ path: string }>;
      await tx.query(DELETE_FILE_LIST, [list.id, list.companyId]);
      const event: FileListEvent = { companyId: caller.companyId, action: 'delete', fileListId: list.id };
      const ids = await this.outbox.add(tx, [
        { subject: TicketSubjects.fileListDeleted(caller.companyId, list.id), msgId: `files-deleted:${list.id}`, payload: event },
      ]);
      return { ids, files: options.map((o) => o.path).filter(isMediaKey) };
    });
    await this.outbox.flush(ids);
    await dropFiles(this.storage, files);
  }

  /**
   * `POST /files/uploadList/{id}`: each file (checked by its bytes, stored) becomes the file of the option `id`
   * names at its position; an option's previous file is removed after the commit. Nothing is kept when one file
   * is refused.
   */
  async upload(caller: Caller, id: number, body: UploadListBody, files: UploadedDiskFile[]): Promise<FileListDto> {
    if (files.length === 0) throw invalidField('files', REQUIRED);
    if (body.id.length !== files.length) throw invalidField('id', 'Send one option id for each file, in the same order.');
    if (new Set(body.id).size !== body.id.length) throw invalidField('id', 'One file per option.');
    await this.find(this.db.manager, caller, id);
    const checked: CheckedMedia[] = [];
    for (const file of files) checked.push(await checkMediaFile(file, 'files'));
    const stored: string[] = [];
    try {
      for (const [i, file] of files.entries()) {
        const key = newMediaKey(caller.companyId, (checked[i] as CheckedMedia).fileName);
        await this.storage.put(key, readUploaded(file));
        stored.push(key);
      }
      return await this.write(async (tx) => {
        const list = await this.find(tx, caller, id, true);
        const current = (await tx.query(LOCK_OPTIONS_OF_LIST, [list.id, list.companyId])) as OptionRow[];
        const byId = new Map(current.map((o) => [o.id, o]));
        const dropped: string[] = [];
        for (const optionId of body.id) {
          const option = byId.get(optionId);
          if (!option) throw invalidField('id', `Option ${optionId} is not one of this list’s.`);
          if (option.path && isMediaKey(option.path)) dropped.push(option.path);
        }
        await tx.query(SET_OPTION_FILES, [body.id, stored, checked.map((c) => c.mimetype), list.companyId]);
        const [[touched]] = (await tx.query(TOUCH_FILE_LIST, [list.id, list.companyId])) as [ListRow[], number];
        return { list: touched ?? list, dropped };
      });
    } catch (err) {
      await dropFiles(this.storage, stored);
      throw err;
    }
  }

  private texts(name: string | undefined, message: string | undefined): { name?: string; message?: string } {
    const n = name?.trim();
    const m = message?.trim();
    if (n !== undefined && n.length < 3) throw invalidField('name', NAME_SHORT);
    if (m !== undefined && !m) throw invalidField('message', REQUIRED);
    return { name: n, message: m };
  }

  private optionNames(options: FileListOptionBody[]): Array<{ id?: number; name: string }> {
    const out = options.map((o) => ({ id: o.id, name: o.name.trim() }));
    if (out.some((o) => !o.name)) throw invalidField('options', REQUIRED);
    const ids = out.flatMap((o) => (o.id === undefined ? [] : [o.id]));
    if (new Set(ids).size !== ids.length) throw invalidField('options', 'An option is named twice.');
    return out;
  }

  private async insertOptions(tx: EntityManager, list: ListRow, options: Array<{ name: string; position: number }>): Promise<void> {
    if (options.length === 0) return;
    await tx.query(INSERT_FILE_LIST_OPTIONS, [list.id, list.companyId, options.map((o) => o.name), options.map((o) => o.position)]);
  }

  private async find(manager: EntityManager, caller: Caller, id: number, lock = false): Promise<ListRow> {
    if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) throw notFound();
    const [list] = (await manager.query(fileListSql(lock), [id, caller.companyId])) as ListRow[];
    if (!list) throw notFound();
    return list;
  }

  private async write(work: (tx: EntityManager) => Promise<{ list: ListRow; dropped: string[] }>): Promise<FileListDto> {
    let result: { view: FileListDto; ids: string[]; dropped: string[] };
    try {
      result = await this.db.transaction(async (tx) => {
        const { list, dropped } = await work(tx);
        const view = (await this.views(tx, [list]))[0] as FileListDto;
        const event: FileListEvent = { companyId: list.companyId, action: 'update', fileList: view };
        const ids = await this.outbox.add(tx, [
          {
            subject: TicketSubjects.fileListUpdated(list.companyId, list.id),
            msgId: `files-updated:${list.id}:${randomUUID()}`,
            payload: event,
          },
        ]);
        return { view, ids, dropped };
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw nameTaken();
      throw err;
    }
    await this.outbox.flush(result.ids);
    await dropFiles(this.storage, result.dropped);
    return result.view;
  }

  private async views(manager: EntityManager, lists: ListRow[]): Promise<FileListDto[]> {
    if (lists.length === 0) return [];
    const options = (await manager.query(SELECT_OPTIONS_OF_LISTS, [
      lists.map((l) => l.id),
      (lists[0] as ListRow).companyId,
    ])) as OptionRow[];
    return lists.map((l) => ({
      id: l.id,
      name: l.name,
      message: l.message,
      userId: l.userId,
      createdAt: new Date(l.createdAt).toISOString(),
      updatedAt: new Date(l.updatedAt).toISOString(),
      options: options
        .filter((o) => o.fileListId === l.id)
        .map((o) => ({
          id: o.id,
          name: o.name,
          path: o.path,
          mediaType: o.mediaType,
          file: o.path && isMediaKey(o.path) ? `/media/${o.path}` : null,
        })),
    }));
  }
}

const uploadOptions = (() => {
  const base = mediaUploadOptions(FILE_LIST_MAX_OPTIONS);
  // per file an id and a mediaType, and the client's own fields
  return { ...base, limits: { ...base.limits, fields: 3 * FILE_LIST_MAX_OPTIONS + 10 } };
})();

/** spec 02 "Files" (`/files`): reads for the company's users, writes for admins. */
@ApiTags('files')
@Controller('files')
export class FileListsController {
  constructor(private readonly lists: FileListsService) {}

  @Get()
  @ApiResponse({
    status: 200,
    description:
      'a page of file lists: { files: [{ id, name, message, userId, options: [{ id, name, path, mediaType, file }], createdAt, updatedAt }], count, hasMore }',
  })
  async page(@CurrentCaller() caller: Caller, @Query() q: ListFileListsQuery): Promise<FileListsPage> {
    return this.lists.page(caller, q);
  }

  @Get(':id')
  @ApiResponse({
    status: 200,
    description: 'the file list: { id, name, message, userId, options: [{ id, name, path, mediaType, file }], createdAt, updatedAt }',
  })
  @ApiResponse({ status: 404, description: 'ERR_NOT_FOUND: no such file list' })
  async get(@CurrentCaller() caller: Caller, @Param('id', ParseIntPipe) id: number): Promise<FileListDto> {
    return this.lists.get(caller, id);
  }

  @AdminOnly()
  @Post()
  @ApiResponse({
    status: 201,
    description:
      'the file list created: { id, name, message, userId, options: [{ id, name, path, mediaType, file }], createdAt, updatedAt }',
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  async create(@CurrentCaller() caller: Caller, @Body() body: CreateFileListDto): Promise<FileListDto> {
    return this.lists.create(caller, body);
  }

  @AdminOnly()
  @Put(':id')
  @ApiResponse({
    status: 200,
    description:
      'the file list as it is now: { id, name, message, userId, options: [{ id, name, path, mediaType, file }], createdAt, updatedAt }',
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({ status: 404, description: 'ERR_NOT_FOUND: no such file list' })
  async update(
    @CurrentCaller() caller: Caller,
    @Param('id', ParseIntPipe) id: number,
    @Body() body: UpdateFileListDto,
  ): Promise<FileListDto> {
    return this.lists.update(caller, id, body);
  }

  @AdminOnly()
  @Post('uploadList/:id')
  @HttpCode(200)
  @ApiResponse({
    status: 200,
    description:
      'the file list with the uploaded files on its options: { id, name, message, userId, options: [{ id, name, path, mediaType, file }], createdAt, updatedAt }',
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({ status: 404, description: 'ERR_NOT_FOUND: no such file list' })
  @ApiResponse({ status: 413, description: 'ERR_PAYLOAD_TOO_LARGE' })
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      properties: {
        files: { type: 'array', items: { type: 'string', format: 'binary' } },
        id: { type: 'array', items: { type: 'integer' } },
      },
    },
  })
  @UseInterceptors(FilesInterceptor('files', FILE_LIST_MAX_OPTIONS, uploadOptions), DiscardUploadsInterceptor)
  async upload(
    @CurrentCaller() caller: Caller,
    @Param('id', ParseIntPipe) id: number,
    @Body() body: UploadListBody,
    @UploadedFiles() files: UploadedDiskFile[] | undefined,
  ): Promise<FileListDto> {
    return this.lists.upload(caller, id, body, files ?? []);
  }

  @AdminOnly()
  @Delete(':id')
  @HttpCode(200)
  @ApiResponse({ status: 200, description: "{ message: 'File list deleted' }" })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({ status: 404, description: 'ERR_NOT_FOUND: no such file list' })
  async remove(@CurrentCaller() caller: Caller, @Param('id', ParseIntPipe) id: number): Promise<{ message: string }> {
    await this.lists.remove(caller, id);
    return { message: 'File list deleted' };
  }
}
