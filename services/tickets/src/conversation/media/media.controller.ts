import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '@wa/auth';
import type { AccessTokenClaims } from '@wa/contracts';
import { DomainError, MediaStorage, mediaKeyCompany, sendStoredMedia } from '@wa/server-kit';
import type { Response } from 'express';

/** Types a browser may show in place; anything else is offered as a download. */
const INLINE = /^(image\/(jpeg|png|gif|webp)|audio\/|video\/|application\/pdf$)/;

/**
 * A stored file (`mediaUrl` of a message: `/media/<companyId>/<folder>/<name>`), for signed-in users of
 * its company only: another company's key answers 404, as a missing file does (nothing tells them apart).
 */
@ApiTags('media')
@Controller('media')
export class MediaController {
  constructor(private readonly storage: MediaStorage) {}

  @Get(':company/:folder/:name')
  @ApiResponse({ status: 200, description: "the file's bytes with its content type (the caller's company's files only)" })
  @ApiResponse({ status: 404, description: 'ERR_NOT_FOUND' })
  async get(
    @CurrentUser() claims: AccessTokenClaims,
    @Param('company') company: string,
    @Param('folder') folder: string,
    @Param('name') name: string,
    @Res() res: Response,
  ): Promise<void> {
    const key = `${company}/${folder}/${name}`;
    const found = mediaKeyCompany(key) === claims.companyId ? await this.storage.get(key) : null;
    if (!found) throw new DomainError('ERR_NOT_FOUND');
    // a key names one file forever: the browser may keep it, shared caches may not
    await sendStoredMedia(res, found, {
      disposition: `${INLINE.test(found.contentType) ? 'inline' : 'attachment'}; filename="${name}"`,
      cacheControl: 'private, max-age=604800, immutable',
    });
  }
}
