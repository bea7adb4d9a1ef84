import { Body, Controller, Delete, Get, HttpCode, Param, ParseIntPipe, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminOnly, CurrentUser } from '@wa/auth';
import type { AccessTokenClaims, UserDto, UsersPage } from '@wa/contracts';
import { CreateUserDto, ListUsersQuery, UpdateUserDto } from './users.dto.js';
import { UsersService } from './users.service.js';

@ApiTags('users')
@Controller('users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Get()
  list(@Query() query: ListUsersQuery): Promise<UsersPage> {
    return this.users.list(query.searchParam, query.pageNumber ?? 1);
  }

  @Get('list')
  names(): Promise<Array<{ id: number; name: string }>> {
    return this.users.names();
  }

  @Get(':id')
  get(@Param('id', ParseIntPipe) id: number): Promise<UserDto> {
    return this.users.get(id);
  }

  @AdminOnly()
  @Post()
  create(@CurrentUser() caller: AccessTokenClaims, @Body() body: CreateUserDto): Promise<UserDto> {
    return this.users.create(caller, body);
  }

  @Put(':id')
  update(@CurrentUser() caller: AccessTokenClaims, @Param('id', ParseIntPipe) id: number, @Body() body: UpdateUserDto): Promise<UserDto> {
    return this.users.update(caller, id, body);
  }

  @AdminOnly()
  @Delete(':id')
  @HttpCode(200)
  async remove(@CurrentUser() caller: AccessTokenClaims, @Param('id', ParseIntPipe) id: number): Promise<{ message: string }> {
    await this.users.remove(caller, id);
    return { message: 'User deleted' };
  }
}
