import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  ParseIntPipe,
  Post,
  Put,
  Query,
  Res,
  UploadedFile,
  UseInterceptors,
} from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { ApiBody, ApiConsumes, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AdminOnly, CurrentUser } from '@wa/auth';
import type { AccessTokenClaims, ContactListDto } from '@wa/contracts';
import type { Response } from 'express';
import { exampleSpreadsheet } from './contact-list-example.js';
import { ContactListImport, type ContactListImportAccepted } from './contact-list-import.service.js';
import { LIST_UPLOAD_MAX_BYTES, type UploadedBuffer } from './contact-list-sheet.js';
import { ContactListBodyDto, ListContactListsQueryDto } from './contact-lists.dto.js';
import { ContactListsService, type ContactListsPage } from './contact-lists.service.js';

/** Contact lists: the company's users read them; its admins change them (spec 02: admins manage contact lists). */
@ApiTags('contact-lists')
@Controller('contact-lists')
export class ContactListsController {
  constructor(
    private readonly lists: ContactListsService,
    private readonly imports: ContactListImport,
  ) {}

  @Get()
  @ApiResponse({
    status: 200,
    description: 'a page of contact lists: { records: [{ id, name, contactsCount, createdAt, updatedAt }], count, hasMore }',
  })
  page(@CurrentUser() claims: AccessTokenClaims, @Query() query: ListContactListsQueryDto): Promise<ContactListsPage> {
    return this.lists.page(claims.companyId, query);
  }

  /** Every list of the company by name (the campaign dialog's picker). */
  @Get('list')
  @ApiResponse({ status: 200, description: 'every contact list: [{ id, name, contactsCount, createdAt, updatedAt }]' })
  all(@CurrentUser() claims: AccessTokenClaims, @Query() _query: ListContactListsQueryDto): Promise<ContactListDto[]> {
    return this.lists.all(claims.companyId);
  }

  /** "Download example spreadsheet": a real .xlsx with the columns an import reads. */
  @Get('example.xlsx')
  @ApiResponse({
    status: 200,
    description: 'an example spreadsheet to fill in (application/vnd.openxmlformats-officedocument.spreadsheetml.sheet)',
  })
  async example(@Res() res: Response): Promise<void> {
    const body = await exampleSpreadsheet();
    res.setHeader('Content-Type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    res.setHeader('Content-Disposition', 'attachment; filename="example.xlsx"');
    res.send(body);
  }

  @Get(':id')
  @ApiResponse({ status: 200, description: 'the contact list: { id, name, contactsCount, createdAt, updatedAt }' })
  @ApiResponse({ status: 404, description: 'ERR_NO_CONTACT_LIST_FOUND' })
  get(@CurrentUser() claims: AccessTokenClaims, @Param('id', ParseIntPipe) id: number): Promise<ContactListDto> {
    return this.lists.get(claims.companyId, id);
  }

  @AdminOnly()
  @Post()
  @ApiResponse({ status: 201, description: 'the contact list created: { id, name, contactsCount, createdAt, updatedAt }' })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  create(@CurrentUser() claims: AccessTokenClaims, @Body() body: ContactListBodyDto): Promise<ContactListDto> {
    return this.lists.create(claims.companyId, body);
  }

  @AdminOnly()
  @Put(':id')
  @ApiResponse({ status: 200, description: 'the contact list as it is now: { id, name, contactsCount, createdAt, updatedAt }' })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({ status: 404, description: 'ERR_NO_CONTACT_LIST_FOUND' })
  update(
    @CurrentUser() claims: AccessTokenClaims,
    @Param('id', ParseIntPipe) id: number,
    @Body() body: ContactListBodyDto,
  ): Promise<ContactListDto> {
    return this.lists.update(claims.companyId, id, body);
  }

  @AdminOnly()
  @Delete(':id')
  @HttpCode(200)
  @ApiResponse({ status: 200, description: "{ message: 'Contact list deleted' }" })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({ status: 404, description: 'ERR_NO_CONTACT_LIST_FOUND' })
  async remove(@CurrentUser() claims: AccessTokenClaims, @Param('id', ParseIntPipe) id: number): Promise<{ message: string }> {
    await this.lists.remove(claims.companyId, id);
    return { message: 'Contact list deleted' };
  }

  /**
   * A spreadsheet (multipart `file`: .xlsx, .xls or .csv): checked now (an .xlsx by its bytes and zip directory, read
   * after the answer), stored in the background (202); the progress and the counts arrive live as `{action: 'import', progress}`.
   */
  @AdminOnly()
  @Post(':id/upload')
  @HttpCode(202)
  @ApiResponse({
    status: 202,
    description: 'the spreadsheet accepted, stored in the background: { contactListId, total? }; progress arrives on the socket',
  })
  @ApiResponse({ status: 400, description: 'ERR_VALIDATION: no file, or not a spreadsheet' })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({ status: 404, description: 'ERR_NO_CONTACT_LIST_FOUND' })
  @ApiResponse({ status: 413, description: 'ERR_PAYLOAD_TOO_LARGE' })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } } } })
  @UseInterceptors(FileInterceptor('file', { limits: { fileSize: LIST_UPLOAD_MAX_BYTES, files: 1 } }))
  upload(
    @CurrentUser() claims: AccessTokenClaims,
    @Param('id', ParseIntPipe) id: number,
    @UploadedFile() file: UploadedBuffer | undefined,
  ): Promise<ContactListImportAccepted> {
    return this.imports.start(claims.companyId, id, file);
  }
}
