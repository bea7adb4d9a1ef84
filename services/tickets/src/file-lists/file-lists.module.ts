import { Module } from '@nestjs/common';
import { FileListsController, FileListsService } from './file-lists.js';

/** The company's file lists (spec 02 "File list"); depends on identity, the outbox and the media storage only. */
@Module({
  controllers: [FileListsController],
  providers: [FileListsService],
})
export class FileListsModule {}
