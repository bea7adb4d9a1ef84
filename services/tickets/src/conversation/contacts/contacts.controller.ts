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
import { AdminOnly } from '@wa/auth';
import type { ContactCreated, ContactDto, ContactsImportReport, ContactsPage } from '@wa/contracts';
import type { Response } from 'express';
import type { Caller } from '../../identity/caller.service.js';
import { CurrentCaller } from '../../identity/current-caller.js';
import { CONTACTS_UPLOAD_MAX_BYTES, readContactsSheet, type UploadedBuffer } from './contacts-spreadsheet.js';
import { ContactsTransfer } from './contacts-transfer.service.js';
import { PhoneContacts } from './phone-contacts.service.js';
import { CreateContactDto, ImportPhoneContactsDto, ListContactsQueryDto, UpdateContactDto } from './contacts.dto.js';
import { ContactsService } from './contacts.service.js';

@ApiTags('contacts')
@Controller('contacts')
export class ContactsController {
  constructor(
    private readonly contacts: ContactsService,
    private readonly transfer: ContactsTransfer,
    private readonly phone: PhoneContacts,
  ) {}

  @Get()
  @ApiResponse({ status: 200, description: 'a page of contacts, by name: { contacts: [contact…], hasMore, count }' })
  async page(@CurrentCaller() caller: Caller, @Query() query: ListContactsQueryDto): Promise<ContactsPage> {
    return this.contacts.page(caller, query);
  }

  @Get('list')
  @ApiResponse({
    status: 200,
    description:
      'every contact of the company (for pickers): [{ id, name, number, email, profilePicUrl, isGroup, extraInfo, isWhatsappValid, createdAt, … }]',
  })
  async list(@CurrentCaller() caller: Caller): Promise<ContactDto[]> {
    return this.contacts.list(caller);
  }

  /** Every contact of the company as CSV, semicolon-separated (spec 02 §9). */
  @AdminOnly()
  @Get('export')
  @ApiResponse({ status: 200, description: 'every contact as CSV (text/csv, semicolon-separated), an attachment contacts.csv' })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  async export(@CurrentCaller() caller: Caller, @Res() res: Response): Promise<void> {
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', 'attachment; filename="contacts.csv"');
    await this.transfer.exportCsv(caller, res);
  }

  /** A spreadsheet (.xlsx or .csv, field `file`): the good rows imported, the bad ones reported. */
  @AdminOnly()
  @Post('upload')
  @HttpCode(200)
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } } } })
  @ApiResponse({ status: 200, description: 'what was imported: { created, updated, failed: [{ row, number, error }] }' })
  @ApiResponse({ status: 400, description: 'ERR_VALIDATION: no file, or not a spreadsheet' })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({ status: 413, description: 'ERR_PAYLOAD_TOO_LARGE' })
  @UseInterceptors(FileInterceptor('file', { limits: { fileSize: CONTACTS_UPLOAD_MAX_BYTES, files: 1 } }))
  async upload(@CurrentCaller() caller: Caller, @UploadedFile() file: UploadedBuffer | undefined): Promise<ContactsImportReport> {
    return this.transfer.importRows(caller, await readContactsSheet(file));
  }

  /** The phone's address book (through the connection's session; the default one unless `whatsappId`), imported. */
  @AdminOnly()
  @Post('import')
  @HttpCode(200)
  @ApiResponse({ status: 200, description: "the phone's contacts imported: { created, updated, failed: [{ row, number, error }] }" })
  @ApiResponse({ status: 400, description: 'ERR_WAPP_NOT_INITIALIZED: the connection is not connected' })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({ status: 404, description: 'ERR_NO_WAPP_FOUND, ERR_NO_DEF_WAPP_FOUND' })
  async importFromPhone(@CurrentCaller() caller: Caller, @Body() body: ImportPhoneContactsDto): Promise<ContactsImportReport> {
    return this.phone.import(caller, body.whatsappId);
  }

  @Get(':id')
  @ApiResponse({
    status: 200,
    description: 'the contact: { id, name, number, email, profilePicUrl, isGroup, extraInfo, isWhatsappValid, createdAt, … }',
  })
  @ApiResponse({ status: 404, description: 'ERR_NO_CONTACT_FOUND' })
  async get(@CurrentCaller() caller: Caller, @Param('id', ParseIntPipe) id: number): Promise<ContactDto> {
    return this.contacts.get(caller, id);
  }

  @Post()
  @HttpCode(200)
  @ApiResponse({
    status: 200,
    description:
      'the contact created: { id, name, number, email, profilePicUrl, isGroup, extraInfo, isWhatsappValid, createdAt, … }; a number ' +
      'already saved answers that contact, with alreadyExists: true, existingContact and invalido (WhatsApp does not know it)',
  })
  @ApiResponse({ status: 400, description: 'ERR_VALIDATION, ERR_WAPP_INVALID_CONTACT, ERR_WAPP_CHECK_CONTACT, ERR_WAPP_NOT_INITIALIZED' })
  async create(@CurrentCaller() caller: Caller, @Body() body: CreateContactDto): Promise<ContactCreated> {
    return this.contacts.create(caller, body);
  }

  @Put(':id')
  @ApiResponse({
    status: 200,
    description: 'the contact as it is now: { id, name, number, email, profilePicUrl, isGroup, extraInfo, isWhatsappValid, createdAt, … }',
  })
  @ApiResponse({ status: 400, description: 'ERR_VALIDATION, ERR_WAPP_INVALID_CONTACT, ERR_WAPP_CHECK_CONTACT' })
  @ApiResponse({ status: 404, description: 'ERR_NO_CONTACT_FOUND' })
  @ApiResponse({ status: 409, description: 'ERR_DUPLICATED_CONTACT: another contact has this number' })
  async update(
    @CurrentCaller() caller: Caller,
    @Param('id', ParseIntPipe) id: number,
    @Body() body: UpdateContactDto,
  ): Promise<ContactDto> {
    return this.contacts.update(caller, id, body);
  }

  @AdminOnly()
  @Delete(':id')
  @HttpCode(200)
  @ApiResponse({ status: 200, description: "{ message: 'Contact deleted' }" })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({ status: 404, description: 'ERR_NO_CONTACT_FOUND' })
  async remove(@CurrentCaller() caller: Caller, @Param('id', ParseIntPipe) id: number): Promise<{ message: string }> {
    await this.contacts.remove(caller, id);
    return { message: 'Contact deleted' };
  }
}
