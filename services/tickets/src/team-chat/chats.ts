import { Body, Controller, Delete, Get, HttpCode, Injectable, Param, Post, Put, Query } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiResponse, ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  TicketSubjects,
  type ChatChangedEvent,
  type ChatDeletedEvent,
  type ChatDto,
  type ChatMessageDto,
  type ChatMessageEvent,
  type ChatMessageRequest,
  type ChatMessagesPage,
  type ChatReadRequest,
  type ChatsPage,
  type ChatsPageQuery,
  type CreateChatRequest,
  type RequestDto,
  type UpdateChatRequest,
} from '@wa/contracts';
import { DomainError, Omittable, PageNumberField } from '@wa/server-kit';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { CallerService, type Caller } from '../identity/caller.service.js';
import { CurrentCaller } from '../identity/current-caller.js';
import { Outbox, type OutgoingEvent } from '../outbox/outbox.service.js';
import {
  CHATS_PAGE_SIZE,
  CHAT_MESSAGES_PAGE_SIZE,
  COUNT_CHAT_MESSAGES,
  COUNT_UNREAD_FOR_OTHERS,
  DELETE_CHATS_BY_ID,
  DELETE_CHAT_USERS_NOT_IN,
  INSERT_CHATS,
  INSERT_CHAT_MESSAGES,
  INSERT_CHAT_USERS,
  MARK_CHAT_READ,
  SELECT_CHATS_BY_ID,
  SELECT_CHATS_PAGE,
  SELECT_CHAT_MESSAGES_PAGE,
  SELECT_CHAT_USERS_BY_CHAT_ID,
  SELECT_CHAT_USERS_OF_CHATS,
  UPDATE_CHATS_LAST_MESSAGE,
  UPDATE_CHATS_TITLE,
  memberChatSql,
} from './chats.queries.js';

/** spec 02 §5 "Internal chat": the form's alerts, as the server's field messages. */
export const NO_TITLE = 'Por favor, preencha o título da conversa.';
export const NO_USERS = 'Por favor, selecione pelo menos um usuário.';

class ChatUserRef {
  @ApiProperty() @Type(() => Number) @IsInt() @Min(1) @Max(2_147_483_647) id: number;
}

export class CreateChatDto implements RequestDto<CreateChatDto, CreateChatRequest> {
  @ApiProperty({ maxLength: 100 }) @IsString({ message: NO_TITLE }) @IsNotEmpty({ message: NO_TITLE }) @MaxLength(100) title: string;
  @ApiProperty({ type: [ChatUserRef], description: 'the members besides the owner (the caller)' })
  @IsArray({ message: NO_USERS })
  @ArrayMaxSize(500)
  @ValidateNested({ each: true })
  @Type(() => ChatUserRef)
  users: ChatUserRef[];
}

export class UpdateChatDto implements RequestDto<UpdateChatDto, UpdateChatRequest> {
  @ApiPropertyOptional() @Omittable() @IsString({ message: NO_TITLE }) @IsNotEmpty({ message: NO_TITLE }) @MaxLength(100) title?: string;
  @ApiPropertyOptional({ type: [ChatUserRef] })
  @Omittable()
  @IsArray({ message: NO_USERS })
  @ArrayMaxSize(500)
  @ValidateNested({ each: true })
  @Type(() => ChatUserRef)
  users?: ChatUserRef[];
}

export class ChatMessageBody implements RequestDto<ChatMessageBody, ChatMessageRequest> {
  @ApiProperty({ maxLength: 10_000 }) @IsString() @MaxLength(10_000) message: string;
}

export class ChatPageQuery implements RequestDto<ChatPageQuery, ChatsPageQuery> {
  @ApiPropertyOptional() @PageNumberField() pageNumber?: number;
}

export class ChatReadBody implements RequestDto<ChatReadBody, ChatReadRequest> {
  /** the product's client sends the reader's id; the reader is the caller whatever it says */
  @ApiPropertyOptional() @IsOptional() @Type(() => Number) @IsInt() userId?: number;
}

interface ChatRow {
  id: number;
  uuid: string;
  companyId: number;
  title: string;
  ownerId: number;
  lastMessage: string;
  createdAt: Date;
  updatedAt: Date;
}

const notFound = () => new DomainError('ERR_NOT_FOUND', {}, 'Chat not found.');
const ownerOnly = () => new DomainError('ERR_NO_PERMISSION', {}, 'Only the chat’s owner changes or deletes it.');
const invalid = (field: string, message: string) =>
  new DomainError('ERR_VALIDATION', { details: [{ field, messages: [message] }] }, message);

/**
 * Internal chat (spec 02, plan flag useInternalChat at the gateway): a company's conversations between its
 * users. A user sees only the chats they are in (another's answers 404); the owner alone renames, changes
 * the members or deletes. Each member has an unread count, raised by others' messages and cleared by
 * reading. Changes go out through the outbox (`chat.*`) and reach the members' sockets only.
 */
@Injectable()
export class ChatsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly outbox: Outbox,
    private readonly callers: CallerService,
  ) {}

  async page(caller: Caller, q: ChatPageQuery): Promise<ChatsPage> {
    const pageNumber = q.pageNumber ?? 1;
    const rows: Array<ChatRow & { total: string }> = await this.db.query(SELECT_CHATS_PAGE, [
      caller.companyId,
      caller.id,
      (pageNumber - 1) * CHATS_PAGE_SIZE,
    ]);
    const count = Number(rows[0]?.total ?? 0);
    return { records: await this.views(this.db.manager, rows), count, hasMore: pageNumber * CHATS_PAGE_SIZE < count };
  }

  async get(caller: Caller, idOrUuid: string): Promise<ChatDto> {
    const chat = await this.member(this.db.manager, caller, idOrUuid);
    return (await this.views(this.db.manager, [chat]))[0] as ChatDto;
  }

  async create(caller: Caller, dto: CreateChatDto): Promise<ChatDto> {
    const title = dto.title.trim();
    if (!title) throw invalid('title', NO_TITLE);
    const members = await this.members(caller, dto.users);
    return this.write(async (tx) => {
      const [chat] = (await tx.query(INSERT_CHATS, [randomUUID(), caller.companyId, title, caller.id])) as ChatRow[];
      await this.setMembers(tx, chat as ChatRow, [caller.id, ...members]);
      const view = (await this.views(tx, [chat as ChatRow]))[0] as ChatDto;
      return { view, events: [this.changed(caller.companyId, view)] };
    });
  }

  async update(caller: Caller, idOrUuid: string, dto: UpdateChatDto): Promise<ChatDto> {
    const members = dto.users !== undefined ? await this.members(caller, dto.users) : undefined;
    return this.write(async (tx) => {
      const chat = await this.member(tx, caller, idOrUuid, true);
      if (chat.ownerId !== caller.id) throw ownerOnly();
      const title = dto.title?.trim();
      if (dto.title !== undefined && !title) throw invalid('title', NO_TITLE);
      await tx.query(UPDATE_CHATS_TITLE, [chat.id, title ?? null, chat.companyId]);
      let removed: number[] = [];
      if (members) {
        const before = (await tx.query(SELECT_CHAT_USERS_BY_CHAT_ID, [chat.id, chat.companyId])) as Array<{ userId: number }>;
        const keep = new Set([chat.ownerId, ...members]);
        removed = before.map((r) => r.userId).filter((id) => !keep.has(id));
        await this.setMembers(tx, chat, [...keep]);
      }
      const [row] = (await tx.query(SELECT_CHATS_BY_ID, [chat.id, chat.companyId])) as ChatRow[];
      const view = (await this.views(tx, [row as ChatRow]))[0] as ChatDto;
      return { view, events: [this.changed(caller.companyId, view, removed)] };
    });
  }

  async remove(caller: Caller, idOrUuid: string): Promise<void> {
    await this.write(async (tx) => {
      const chat = await this.member(tx, caller, idOrUuid, true);
      if (chat.ownerId !== caller.id) throw ownerOnly();
      const users = (await tx.query(SELECT_CHAT_USERS_BY_CHAT_ID, [chat.id, chat.companyId])) as Array<{ userId: number }>;
      await tx.query(DELETE_CHATS_BY_ID, [chat.id, chat.companyId]);
      const payload: ChatDeletedEvent = { companyId: caller.companyId, chatId: chat.id, userIds: users.map((u) => u.userId) };
      return {
        view: undefined,
        events: [{ subject: TicketSubjects.chatDeleted(caller.companyId, chat.id), msgId: `chat-deleted:${chat.id}`, payload }],
      };
    });
  }

  /** The caller read the chat: their unread count goes to 0. */
  async read(caller: Caller, idOrUuid: string): Promise<ChatDto> {
    return this.write(async (tx) => {
      const chat = await this.member(tx, caller, idOrUuid);
      await tx.query(MARK_CHAT_READ, [chat.id, caller.id, chat.companyId]);
      const view = (await this.views(tx, [chat]))[0] as ChatDto;
      return { view, events: [this.changed(caller.companyId, view)] };
    });
  }

  async messages(caller: Caller, idOrUuid: string, q: ChatPageQuery): Promise<ChatMessagesPage> {
    const chat = await this.member(this.db.manager, caller, idOrUuid);
    const pageNumber = q.pageNumber ?? 1;
    const [{ n }] = (await this.db.query(COUNT_CHAT_MESSAGES, [chat.id, chat.companyId])) as Array<{ n: number }>;
    const rows = (await this.db.query(SELECT_CHAT_MESSAGES_PAGE, [
      chat.id,
      (pageNumber - 1) * CHAT_MESSAGES_PAGE_SIZE,
      chat.companyId,
    ])) as Array<{ id: string; chatId: number; message: string; senderId: number; createdAt: Date }>;
    return {
      records: rows.reverse().map((r) => this.messageView(caller.companyId, r)),
      count: n,
      hasMore: pageNumber * CHAT_MESSAGES_PAGE_SIZE < n,
    };
  }

  /** A message: stored, the chat's last message and the other members' unread counts raised, all members told. */
  async send(caller: Caller, idOrUuid: string, body: ChatMessageBody): Promise<ChatMessageDto> {
    const text = body.message.trim();
    if (!text) throw invalid('message', 'Required');
    let message: ChatMessageDto | undefined;
    await this.write(async (tx) => {
      const chat = await this.member(tx, caller, idOrUuid, true);
      const [row] = (await tx.query(INSERT_CHAT_MESSAGES, [chat.id, caller.companyId, caller.id, text])) as Array<{
        id: string;
        chatId: number;
        message: string;
        senderId: number;
        createdAt: Date;
      }>;
      await tx.query(UPDATE_CHATS_LAST_MESSAGE, [chat.id, text.slice(0, 1000), chat.companyId]);
      await tx.query(COUNT_UNREAD_FOR_OTHERS, [chat.id, caller.id, chat.companyId]);
      const [fresh] = (await tx.query(SELECT_CHATS_BY_ID, [chat.id, chat.companyId])) as ChatRow[];
      const view = (await this.views(tx, [fresh as ChatRow]))[0] as ChatDto;
      message = this.messageView(
        caller.companyId,
        row as { id: string; chatId: number; message: string; senderId: number; createdAt: Date },
      );
      const payload: ChatMessageEvent = { companyId: caller.companyId, chat: view, message };
      return {
        view,
        events: [{ subject: TicketSubjects.chatMessage(caller.companyId, chat.id), msgId: `chat-message:${message.id}`, payload }],
      };
    });
    return message as ChatMessageDto;
  }

  private async write<T>(work: (tx: EntityManager) => Promise<{ view: T; events: OutgoingEvent[] }>): Promise<T> {
    const { view, ids } = await this.db.transaction(async (tx) => {
      const { view, events } = await work(tx);
      return { view, ids: await this.outbox.add(tx, events) };
    });
    await this.outbox.flush(ids);
    return view;
  }

  private changed(companyId: number, chat: ChatDto, removedUserIds: number[] = []): OutgoingEvent {
    const payload: ChatChangedEvent = { companyId, chat, ...(removedUserIds.length ? { removedUserIds } : {}) };
    return { subject: TicketSubjects.chatUpdated(companyId, chat.id), msgId: `chat-updated:${chat.id}:${randomUUID()}`, payload };
  }

  /** The chat, when the caller is one of its members (else 404: another's chat is not revealed). */
  private async member(manager: EntityManager, caller: Caller, idOrUuid: string, lock = false): Promise<ChatRow> {
    const byUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(idOrUuid);
    const id = byUuid ? null : Number(idOrUuid);
    if (!byUuid && !(Number.isSafeInteger(id) && (id as number) > 0 && (id as number) <= 2_147_483_647)) throw notFound();
    const [chat] = (await manager.query(memberChatSql(byUuid, lock), [caller.companyId, byUuid ? idOrUuid : id, caller.id])) as ChatRow[];
    if (!chat) throw notFound();
    return chat;
  }

  /** The members a body names: at least one besides the caller, each a user of the caller's company. */
  private async members(caller: Caller, users: Array<{ id: number }>): Promise<number[]> {
    const ids = [...new Set(users.map((u) => u.id))].filter((id) => id !== caller.id);
    if (ids.length === 0) throw invalid('users', NO_USERS);
    for (const id of ids) await this.callers.assertCompanyUser(caller.companyId, id);
    return ids;
  }

  private async setMembers(tx: EntityManager, chat: ChatRow, userIds: number[]): Promise<void> {
    await tx.query(DELETE_CHAT_USERS_NOT_IN, [chat.id, userIds, chat.companyId]);
    await tx.query(INSERT_CHAT_USERS, [chat.id, userIds, chat.companyId]);
  }

  private async views(manager: EntityManager, chats: ChatRow[]): Promise<ChatDto[]> {
    if (chats.length === 0) return [];
    const members = (await manager.query(SELECT_CHAT_USERS_OF_CHATS, [chats.map((c) => c.id), (chats[0] as ChatRow).companyId])) as Array<{
      chatId: number;
      userId: number;
      unreads: number;
    }>;
    return chats.map((c) => ({
      id: c.id,
      uuid: c.uuid,
      title: c.title,
      ownerId: c.ownerId,
      lastMessage: c.lastMessage,
      createdAt: new Date(c.createdAt).toISOString(),
      updatedAt: new Date(c.updatedAt).toISOString(),
      users: members
        .filter((m) => m.chatId === c.id)
        .map((m) => ({ userId: m.userId, unreads: m.unreads, user: { id: m.userId, name: this.callers.nameOf(c.companyId, m.userId) } })),
    }));
  }

  private messageView(
    companyId: number,
    r: { id: string; chatId: number; message: string; senderId: number; createdAt: Date },
  ): ChatMessageDto {
    return {
      id: Number(r.id),
      chatId: r.chatId,
      message: r.message,
      senderId: r.senderId,
      sender: { id: r.senderId, name: this.callers.nameOf(companyId, r.senderId) },
      createdAt: new Date(r.createdAt).toISOString(),
    };
  }
}

/** spec 02 "Internal chat" (`/chats/:id?`, the id a chat's uuid or its number). */
@ApiTags('chats')
@Controller('chats')
export class ChatsController {
  constructor(
    private readonly chats: ChatsService,
    private readonly callers: CallerService,
  ) {}

  @Get()
  @ApiResponse({
    status: 200,
    description:
      "a page of the user's internal chats: { records: [{ id, uuid, title, ownerId, lastMessage, users: [{ userId, unreads, user }], createdAt, updatedAt }], count, hasMore }",
  })
  async page(@CurrentCaller() caller: Caller, @Query() q: ChatPageQuery): Promise<ChatsPage> {
    return this.chats.page(caller, q);
  }

  @Get(':id')
  @ApiResponse({
    status: 200,
    description: 'the chat: { id, uuid, title, ownerId, lastMessage, users: [{ userId, unreads, user }], createdAt, updatedAt }',
  })
  @ApiResponse({ status: 404, description: 'ERR_NOT_FOUND: no such chat, or the user is not in it' })
  async get(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<ChatDto> {
    return this.chats.get(caller, id);
  }

  @Post()
  @ApiResponse({
    status: 201,
    description:
      'the chat created, the caller its owner: { id, uuid, title, ownerId, lastMessage, users: [{ userId, unreads, user }], createdAt, updatedAt }',
  })
  async create(@CurrentCaller() caller: Caller, @Body() body: CreateChatDto): Promise<ChatDto> {
    return this.chats.create(caller, body);
  }

  @Put(':id')
  @ApiResponse({
    status: 200,
    description:
      'the chat as it is now (title, users): { id, uuid, title, ownerId, lastMessage, users: [{ userId, unreads, user }], createdAt, updatedAt }',
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: only its owner changes it' })
  @ApiResponse({ status: 404, description: 'ERR_NOT_FOUND: no such chat, or the user is not in it' })
  async update(@CurrentCaller() caller: Caller, @Param('id') id: string, @Body() body: UpdateChatDto): Promise<ChatDto> {
    return this.chats.update(caller, id, body);
  }

  @Delete(':id')
  @HttpCode(200)
  @ApiResponse({ status: 200, description: "{ message: 'Chat deleted' }" })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: only its owner deletes it' })
  @ApiResponse({ status: 404, description: 'ERR_NOT_FOUND: no such chat, or the user is not in it' })
  async remove(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<{ message: string }> {
    await this.chats.remove(caller, id);
    return { message: 'Chat deleted' };
  }

  @Post(':id/read')
  @HttpCode(200)
  @ApiResponse({
    status: 200,
    description:
      "the chat with the caller's unread count at 0: { id, uuid, title, ownerId, lastMessage, users: [{ userId, unreads, user }], createdAt, updatedAt }",
  })
  @ApiResponse({ status: 404, description: 'ERR_NOT_FOUND: no such chat, or the user is not in it' })
  async read(@CurrentCaller() caller: Caller, @Param('id') id: string, @Body() _body: ChatReadBody): Promise<ChatDto> {
    return this.chats.read(caller, id);
  }

  @Get(':id/messages')
  @ApiResponse({
    status: 200,
    description: "a page of the chat's messages: { records: [{ id, chatId, message, senderId, sender, createdAt }], count, hasMore }",
  })
  @ApiResponse({ status: 404, description: 'ERR_NOT_FOUND: no such chat, or the user is not in it' })
  async messages(@CurrentCaller() caller: Caller, @Param('id') id: string, @Query() q: ChatPageQuery): Promise<ChatMessagesPage> {
    return this.chats.messages(caller, id, q);
  }

  @Post(':id/messages')
  @ApiResponse({ status: 201, description: 'the message sent: { id, chatId, message, senderId, sender, createdAt }' })
  @ApiResponse({ status: 404, description: 'ERR_NOT_FOUND: no such chat, or the user is not in it' })
  async send(@CurrentCaller() caller: Caller, @Param('id') id: string, @Body() body: ChatMessageBody): Promise<ChatMessageDto> {
    return this.chats.send(caller, id, body);
  }
}
