import { Body, Controller, Delete, Get, HttpCode, Param, ParseIntPipe, Post, Put, Query } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
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
  @ApiResponse({
    status: 200,
    description:
      "a page of a list's contacts: { contacts: [{ id, name, number, email, isWhatsappValid, contactListId, createdAt, updatedAt }], hasMore }",
  })
  page(@CurrentUser() claims: AccessTokenClaims, @Query() query: ListContactListItemsQueryDto): Promise<ContactListItemsPage> {
    return this.items.page(claims.companyId, query);
  }

  @Get(':id')
  @ApiResponse({
    status: 200,
    description: "the list's contact: { id, name, number, email, isWhatsappValid, contactListId, createdAt, updatedAt }",
  })
  @ApiResponse({ status: 404, description: 'ERR_NO_CONTACT_LIST_ITEM_FOUND' })
  get(@CurrentUser() claims: AccessTokenClaims, @Param('id', ParseIntPipe) id: number): Promise<ContactListItemDto> {
    return this.items.get(claims.companyId, id);
  }

  @AdminOnly()
  @Post()
  @ApiResponse({
    status: 201,
    description: 'the contact added to the list: { id, name, number, email, isWhatsappValid, contactListId, createdAt, updatedAt }',
  })
  @ApiResponse({ status: 400, description: 'ERR_VALIDATION, ERR_WAPP_INVALID_CONTACT' })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({ status: 404, description: 'ERR_NO_CONTACT_LIST_FOUND' })
  @ApiResponse({ status: 409, description: 'ERR_DUPLICATED_LIST_ITEM: the number is in the list' })
  create(@CurrentUser() claims: AccessTokenClaims, @Body() body: CreateContactListItemDto): Promise<ContactListItemDto> {
    return this.items.create(claims.companyId, body);
  }

  @AdminOnly()
  @Put(':id')
  @ApiResponse({
    status: 200,
    description: "the list's contact as it is now: { id, name, number, email, isWhatsappValid, contactListId, createdAt, updatedAt }",
  })
  @ApiResponse({ status: 400, description: 'ERR_VALIDATION, ERR_WAPP_INVALID_CONTACT' })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({ status: 404, description: 'ERR_NO_CONTACT_LIST_ITEM_FOUND' })
  @ApiResponse({ status: 409, description: 'ERR_DUPLICATED_LIST_ITEM: the number is in the list' })
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
  @ApiResponse({ status: 200, description: "{ message: 'Contact deleted' }" })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({ status: 404, description: 'ERR_NO_CONTACT_LIST_ITEM_FOUND' })
  async remove(@CurrentUser() claims: AccessTokenClaims, @Param('id', ParseIntPipe) id: number): Promise<{ message: string }> {
    await this.items.remove(claims.companyId, id);
    return { message: 'Contact deleted' };
  }
}
