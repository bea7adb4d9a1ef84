import { createDataSource, type ServiceDatabaseOptions } from '@wa/database';
import { CAMPAIGNS_ENTITIES } from './entities/index.js';
import { InitCampaigns1732240000000 } from './migrations/1732240000000-init-campaigns.js';
import { CampaignsTables1732240000001 } from './migrations/1732240000001-campaigns-tables.js';
import { ShippingsDueByCampaign1732240000002 } from './migrations/1732240000002-shippings-due-by-campaign.js';

export const SCHEMA = 'campaigns';
export const migrations = [InitCampaigns1732240000000, CampaignsTables1732240000001, ShippingsDueByCampaign1732240000002];

export function campaignsDatabase(url: string, poolSize?: number): ServiceDatabaseOptions {
  return { url, schema: SCHEMA, entities: CAMPAIGNS_ENTITIES, migrations, poolSize, applicationName: 'campaigns' };
}

/** For the TypeORM CLI */
export default createDataSource(campaignsDatabase(process.env.DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/wa'));
