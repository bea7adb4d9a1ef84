import { downloadFile } from '../campaigns/campaigns.api';
import { campaignNotify } from '../campaigns/ui';

/** "Download example spreadsheet": GET /contact-lists/example.xlsx with the session's token, saved as a file. */
export function downloadExample(): void {
  downloadFile('/contact-lists/example.xlsx', 'contact-list-example.xlsx').catch((err: unknown) => campaignNotify.error(err));
}
