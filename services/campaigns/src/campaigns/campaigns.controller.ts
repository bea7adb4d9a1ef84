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
import type { AccessTokenClaims, CampaignDto, CampaignReport } from '@wa/contracts';
import { DiscardUploadsInterceptor, mediaUploadOptions, type UploadedDiskFile } from '@wa/server-kit';
import type { Response } from 'express';
import { CreateCampaignDto, ListCampaignsQueryDto, UpdateCampaignDto } from './campaigns.dto.js';
import { CampaignsService } from './campaigns.service.js';

/** Spec 02 §7 "Campaigns": any user of the company reads them; an admin writes, stops and restarts them. */
@ApiTags('campaigns')
@Controller('campaigns')
export class CampaignsController {
  constructor(private readonly campaigns: CampaignsService) {}

  @Get()
  @ApiResponse({
    status: 200,
    description:
      'a page of campaigns: { records: [{ id, name, status, message1…5, confirmation, confirmationMessage1…5, scheduledAt, contactListId, tagListId, whatsappId, mediaPath, mediaName, … }], hasMore, count }',
  })
  page(
    @CurrentUser() caller: AccessTokenClaims,
    @Query() query: ListCampaignsQueryDto,
  ): Promise<{ records: CampaignDto[]; hasMore: boolean; count: number }> {
    return this.campaigns.page(caller.companyId, query);
  }

  @Get(':id')
  @ApiResponse({
    status: 200,
    description:
      'the campaign: { id, name, status, message1…5, confirmation, confirmationMessage1…5, scheduledAt, contactListId, tagListId, whatsappId, mediaPath, mediaName, … }',
  })
  @ApiResponse({ status: 404, description: 'ERR_NO_CAMPAIGN_FOUND' })
  get(@CurrentUser() caller: AccessTokenClaims, @Param('id', ParseIntPipe) id: number): Promise<CampaignDto> {
    return this.campaigns.get(caller.companyId, id);
  }

  @Get(':id/report')
  @ApiResponse({
    status: 200,
    description:
      "the campaign's counts: { valid, invalid, sent, delivered, read, failed, pending, confirmationRequested, confirmed, optedOut, … }",
  })
  @ApiResponse({ status: 404, description: 'ERR_NO_CAMPAIGN_FOUND' })
  report(@CurrentUser() caller: AccessTokenClaims, @Param('id', ParseIntPipe) id: number): Promise<CampaignReport> {
    return this.campaigns.report(caller.companyId, id);
  }

  /** The campaign's rows as CSV (number, name, status, the message sent, its times, why it failed, the confirmation). */
  @Get(':id/report/export')
  @ApiResponse({ status: 200, description: "each contact's outcome as CSV (text/csv), an attachment campaign-<id>-report.csv" })
  @ApiResponse({ status: 404, description: 'ERR_NO_CAMPAIGN_FOUND' })
  async export(@CurrentUser() caller: AccessTokenClaims, @Param('id', ParseIntPipe) id: number, @Res() res: Response): Promise<void> {
    await this.campaigns.get(caller.companyId, id);
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="campaign-${id}-report.csv"`);
    await this.campaigns.exportCsv(caller.companyId, id, res);
  }

  @AdminOnly()
  @Post()
  @ApiResponse({
    status: 201,
    description:
      'the campaign created (scheduled when scheduledAt is set): { id, name, status, message1…5, confirmation, confirmationMessage1…5, scheduledAt, contactListId, tagListId, whatsappId, mediaPath, mediaName, … }',
  })
  @ApiResponse({ status: 400, description: 'ERR_VALIDATION' })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({ status: 404, description: 'ERR_NO_CONTACT_LIST_FOUND, ERR_NO_TAG_FOUND, ERR_NO_WAPP_FOUND' })
  create(@CurrentUser() caller: AccessTokenClaims, @Body() body: CreateCampaignDto): Promise<CampaignDto> {
    return this.campaigns.create(caller.companyId, body);
  }

  @AdminOnly()
  @Put(':id')
  @ApiResponse({
    status: 200,
    description:
      'the campaign as it is now: { id, name, status, message1…5, confirmation, confirmationMessage1…5, scheduledAt, contactListId, tagListId, whatsappId, mediaPath, mediaName, … }',
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({ status: 404, description: 'ERR_NO_CAMPAIGN_FOUND, ERR_NO_CONTACT_LIST_FOUND, ERR_NO_TAG_FOUND, ERR_NO_WAPP_FOUND' })
  @ApiResponse({ status: 409, description: 'ERR_CAMPAIGN_NOT_EDITABLE: it started or ended' })
  update(
    @CurrentUser() caller: AccessTokenClaims,
    @Param('id', ParseIntPipe) id: number,
    @Body() body: UpdateCampaignDto,
  ): Promise<CampaignDto> {
    return this.campaigns.update(caller.companyId, id, body);
  }

  @AdminOnly()
  @Delete(':id')
  @HttpCode(200)
  @ApiResponse({ status: 200, description: "{ message: 'Campaign deleted' }" })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({ status: 404, description: 'ERR_NO_CAMPAIGN_FOUND' })
  async remove(@CurrentUser() caller: AccessTokenClaims, @Param('id', ParseIntPipe) id: number): Promise<{ message: string }> {
    await this.campaigns.remove(caller.companyId, id);
    return { message: 'Campaign deleted' };
  }

  @AdminOnly()
  @Post(':id/cancel')
  @HttpCode(200)
  @ApiResponse({
    status: 200,
    description:
      'the campaign, cancelled: { id, name, status, message1…5, confirmation, confirmationMessage1…5, scheduledAt, contactListId, tagListId, whatsappId, mediaPath, mediaName, … }',
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({ status: 404, description: 'ERR_NO_CAMPAIGN_FOUND' })
  @ApiResponse({ status: 409, description: 'ERR_CAMPAIGN_NOT_RUNNING' })
  cancel(@CurrentUser() caller: AccessTokenClaims, @Param('id', ParseIntPipe) id: number): Promise<CampaignDto> {
    return this.campaigns.cancel(caller.companyId, id);
  }

  @AdminOnly()
  @Post(':id/restart')
  @HttpCode(200)
  @ApiResponse({
    status: 200,
    description:
      'the campaign, running again: { id, name, status, message1…5, confirmation, confirmationMessage1…5, scheduledAt, contactListId, tagListId, whatsappId, mediaPath, mediaName, … }',
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({ status: 404, description: 'ERR_NO_CAMPAIGN_FOUND' })
  @ApiResponse({ status: 409, description: 'ERR_CAMPAIGN_NOT_CANCELLED' })
  restart(@CurrentUser() caller: AccessTokenClaims, @Param('id', ParseIntPipe) id: number): Promise<CampaignDto> {
    return this.campaigns.restart(caller.companyId, id);
  }

  /** The attachment (multipart `file`): an image, audio, video or document, checked by its bytes. */
  @AdminOnly()
  @Post(':id/media-upload')
  @HttpCode(200)
  @ApiResponse({
    status: 200,
    description:
      'the campaign with its attachment: { id, name, status, message1…5, confirmation, confirmationMessage1…5, scheduledAt, contactListId, tagListId, whatsappId, mediaPath, mediaName, … }',
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({ status: 404, description: 'ERR_NO_CAMPAIGN_FOUND' })
  @ApiResponse({ status: 409, description: 'ERR_CAMPAIGN_NOT_EDITABLE' })
  @ApiResponse({ status: 413, description: 'ERR_PAYLOAD_TOO_LARGE' })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } } } })
  @UseInterceptors(FileInterceptor('file', mediaUploadOptions(1)), DiscardUploadsInterceptor)
  upload(
    @CurrentUser() caller: AccessTokenClaims,
    @Param('id', ParseIntPipe) id: number,
    @UploadedFile() file: UploadedDiskFile | undefined,
  ): Promise<CampaignDto> {
    return this.campaigns.attachMedia(caller.companyId, id, file);
  }

  @AdminOnly()
  @Delete(':id/media-upload')
  @HttpCode(200)
  @ApiResponse({
    status: 200,
    description:
      'the campaign without its attachment: { id, name, status, message1…5, confirmation, confirmationMessage1…5, scheduledAt, contactListId, tagListId, whatsappId, mediaPath, mediaName, … }',
  })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  @ApiResponse({ status: 404, description: 'ERR_NO_CAMPAIGN_FOUND' })
  @ApiResponse({ status: 409, description: 'ERR_CAMPAIGN_NOT_EDITABLE' })
  removeMedia(@CurrentUser() caller: AccessTokenClaims, @Param('id', ParseIntPipe) id: number): Promise<CampaignDto> {
    return this.campaigns.detachMedia(caller.companyId, id);
  }
}
