import { Body, Controller, Delete, Get, HttpCode, Param, ParseIntPipe, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminOnly, CurrentUser } from '@wa/auth';
import type { AccessTokenClaims, ContactListItemDto } from '@wa/contracts';
import { ContactListItemsService, type ContactListItemsPage } from './contact-list-items.service.js';
import { CreateContactListItemDto, ListContactListItemsQueryDto, UpdateContactListItemDto } from './contact-lists.dto.js';

/** A list's items: the company's users read them; its admins change them. */
@ApiTags('contact-lists')
@Controller('contact-list-items')
export class ContactListItemsController {
  constructor(private readonly items: ContactListItemsService) {}

  @Get()
  page(@CurrentUser() claims: AccessTokenClaims, @Query() query: ListContactListItemsQueryDto): Promise<ContactListItemsPage> {
    return this.items.page(claims.companyId, query);
  }

  @Get(':id')
  get(@CurrentUser() claims: AccessTokenClaims, @Param('id', ParseIntPipe) id: number): Promise<ContactListItemDto> {
    return this.items.get(claims.companyId, id);
  }

  @AdminOnly()
  @Post()
  create(@CurrentUser() claims: AccessTokenClaims, @Body() body: CreateContactListItemDto): Promise<ContactListItemDto> {
    return this.items.create(claims.companyId, body);
  }

  @AdminOnly()
  @Put(':id')
  update(
    @CurrentUser() claims: AccessTokenClaims,
    @Param('id', ParseIntPipe) id: number,
    @Body() body: UpdateContactListItemDto,
  ): Promise<ContactListItemDto> {
    return this.items.update(claims.companyId, id, body);
  }

  @AdminOnly()
  @Delete(':id')
  @HttpCode(200)
  async remove(@CurrentUser() claims: AccessTokenClaims, @Param('id', ParseIntPipe) id: number): Promise<{ message: string }> {
    await this.items.remove(claims.companyId, id);
    return { message: 'Contact deleted' };
  }
}
