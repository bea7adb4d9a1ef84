import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { ContactPictureJob } from './contact-picture.job.js';
import { CONTACT_PICTURES_QUEUE, ContactPictures } from './contact-pictures.js';

/** Contacts' profile pictures fetched from WhatsApp in the background (BullMQ), kept on the contact and refreshed daily. */
@Module({
  imports: [BullModule.registerQueue({ name: CONTACT_PICTURES_QUEUE })],
  providers: [ContactPictures, ContactPictureJob],
  exports: [ContactPictures],
})
export class ContactPicturesModule {}
