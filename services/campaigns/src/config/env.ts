import { InfraEnv } from '@wa/server-kit';

export class CampaignsEnv extends InfraEnv {
  override PORT: number = 3104;
}
