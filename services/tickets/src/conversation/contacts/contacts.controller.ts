import { Body, Controller, Delete, Get, HttpCode, Param, ParseIntPipe, Post, Put, Query, Res, UploadedFile, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { ApiBody, ApiConsumes, ApiTags } from '@nestjs/swagger';
import { AdminOnly, CurrentUser } from '@wa/auth';
import type { AccessTokenClaims, ContactCreated, ContactDto, ContactsImportReport, ContactsPage } from '@wa/contracts';
import type { Response } from 'express';
import { CallerService } from '../../identity/caller.service.js';
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
    private readonly callers: CallerService,
  ) {}

  @Get()
  async page(@CurrentUser() claims: AccessTokenClaims, @Query() query: ListContactsQueryDto): Promise<ContactsPage> {
    return this.contacts.page(await this.callers.of(claims), query);
  }

  @Get('list')
  async list(@CurrentUser() claims: AccessTokenClaims): Promise<ContactDto[]> {
    return this.contacts.list(await this.callers.of(claims));
  }

  /** Every contact of the company as CSV, semicolon-separated (spec 02 §9). */
  @AdminOnly()
  @Get('export')
  async export(@CurrentUser() claims: AccessTokenClaims, @Res() res: Response): Promise<void> {
    const caller = await this.callers.of(claims);
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
  @UseInterceptors(FileInterceptor('file', { limits: { fileSize: CONTACTS_UPLOAD_MAX_BYTES, files: 1 } }))
  async upload(@CurrentUser() claims: AccessTokenClaims, @UploadedFile() file: UploadedBuffer | undefined): Promise<ContactsImportReport> {
    const caller = await this.callers.of(claims);
    return this.transfer.importRows(caller, await readContactsSheet(file));
  }

  /** The phone's address book (through the connection's session; the default one unless `whatsappId`), imported. */
  @AdminOnly()
  @Post('import')
  @HttpCode(200)
  async importFromPhone(@CurrentUser() claims: AccessTokenClaims, @Body() body: ImportPhoneContactsDto): Promise<ContactsImportReport> {
    return this.phone.import(await this.callers.of(claims), body.whatsappId);
  }

  @Get(':id')
  async get(@CurrentUser() claims: AccessTokenClaims, @Param('id', ParseIntPipe) id: number): Promise<ContactDto> {
    return this.contacts.get(await this.callers.of(claims), id);
  }

  @Post()
  @HttpCode(200)
  async create(@CurrentUser() claims: AccessTokenClaims, @Body() body: CreateContactDto): Promise<ContactCreated> {
    return this.contacts.create(await this.callers.of(claims), body);
  }

  @Put(':id')
  async update(@CurrentUser() claims: AccessTokenClaims, @Param('id', ParseIntPipe) id: number, @Body() body: UpdateContactDto): Promise<ContactDto> {
    return this.contacts.update(await this.callers.of(claims), id, body);
  }

  @AdminOnly()
  @Delete(':id')
  @HttpCode(200)
  async remove(@CurrentUser() claims: AccessTokenClaims, @Param('id', ParseIntPipe) id: number): Promise<{ message: string }> {
    await this.contacts.remove(await this.callers.of(claims), id);
    return { message: 'Contact deleted' };
  }
}
