import { Body, Controller, Delete, Get, HttpCode, Param, ParseIntPipe, Post, Put, Query } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import { AdminOnly, CurrentUser } from '@wa/auth';
import type { AccessTokenClaims, UserDto, UsersPage } from '@wa/contracts';
import { CreateUserDto, ListUsersQuery, UpdateUserDto } from './users.dto.js';
import { UsersService } from './users.service.js';

@ApiTags('users')
@Controller('users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Get()
  @ApiResponse({ status: 200, description: "a page of the company's users: { users: [user…], count, hasMore }" })
  list(@Query() query: ListUsersQuery): Promise<UsersPage> {
    return this.users.list(query.searchParam, query.pageNumber ?? 1);
  }

  @Get('list')
  @ApiResponse({ status: 200, description: "the company's users, for pickers: [{ id, name }]" })
  names(): Promise<Array<{ id: number; name: string }>> {
    return this.users.names();
  }

  @Get(':id')
  @ApiResponse({
    status: 200,
    description:
      'the user: { id, name, email, profile, companyId, whatsappId, allTicket, super, online, queues, queueIds, company, createdAt, updatedAt }',
  })
  @ApiResponse({ status: 404, description: 'ERR_NO_USER_FOUND' })
  get(@Param('id', ParseIntPipe) id: number): Promise<UserDto> {
    return this.users.get(id);
  }

  @AdminOnly()
  @Post()
  @ApiResponse({
    status: 201,
    description:
      'the user created: { id, name, email, profile, companyId, whatsappId, allTicket, super, online, queues, queueIds, company, createdAt, updatedAt }',
  })
  @ApiResponse({ status: 403, description: "ERR_NO_PERMISSION: admins only; ERR_PLAN_LIMIT_REACHED: the plan's count of users" })
  @ApiResponse({ status: 409, description: 'ERR_EMAIL_ALREADY_EXISTS' })
  create(@CurrentUser() caller: AccessTokenClaims, @Body() body: CreateUserDto): Promise<UserDto> {
    return this.users.create(caller, body);
  }

  @Put(':id')
  @ApiResponse({
    status: 200,
    description:
      'the user as it is now: { id, name, email, profile, companyId, whatsappId, allTicket, super, online, queues, queueIds, company, createdAt, updatedAt }',
  })
  @ApiResponse({ status: 400, description: 'ERR_VALIDATION (oldPassword wrong: "Senha atual incorreta")' })
  @ApiResponse({
    status: 403,
    description: "ERR_NO_PERMISSION: a user (not an admin) changing another, or their own profile or queues; a super user's by a non-super",
  })
  @ApiResponse({ status: 404, description: 'ERR_NO_USER_FOUND' })
  @ApiResponse({ status: 409, description: 'ERR_EMAIL_ALREADY_EXISTS' })
  update(@CurrentUser() caller: AccessTokenClaims, @Param('id', ParseIntPipe) id: number, @Body() body: UpdateUserDto): Promise<UserDto> {
    return this.users.update(caller, id, body);
  }

  @AdminOnly()
  @Delete(':id')
  @HttpCode(200)
  @ApiResponse({ status: 200, description: "{ message: 'User deleted' }" })
  @ApiResponse({ status: 403, description: "ERR_NO_PERMISSION: admins only; a super user's by a non-super" })
  @ApiResponse({ status: 404, description: 'ERR_NO_USER_FOUND' })
  async remove(@CurrentUser() caller: AccessTokenClaims, @Param('id', ParseIntPipe) id: number): Promise<{ message: string }> {
    await this.users.remove(caller, id);
    return { message: 'User deleted' };
  }
}
