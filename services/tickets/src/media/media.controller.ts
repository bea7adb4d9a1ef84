import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '@wa/auth';
import type { AccessTokenClaims } from '@wa/contracts';
import { DomainError, MediaStorage, mediaKeyCompany } from '@wa/server-kit';
import type { Response } from 'express';
import { pipeline } from 'node:stream/promises';

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
  async get(@CurrentUser() claims: AccessTokenClaims, @Param('company') company: string, @Param('folder') folder: string, @Param('name') name: string, @Res() res: Response): Promise<void> {
    const key = `${company}/${folder}/${name}`;
    const found = mediaKeyCompany(key) === claims.companyId ? await this.storage.get(key) : null;
    if (!found) throw new DomainError('ERR_NOT_FOUND');
    res.setHeader('Content-Type', found.contentType);
    res.setHeader('Content-Length', String(found.size));
    res.setHeader('Content-Disposition', `${INLINE.test(found.contentType) ? 'inline' : 'attachment'}; filename="${name}"`);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
    // a key names one file forever: the browser may keep it, shared caches may not
    res.setHeader('Cache-Control', 'private, max-age=604800, immutable');
    try {
      await pipeline(found.stream, res);
    } catch {
      // the reader went away mid-file (or the storage failed after the headers): nothing more can be said
      res.destroy();
    }
  }
}
