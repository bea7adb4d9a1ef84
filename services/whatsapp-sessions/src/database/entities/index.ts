import { ConnectionEntity } from './connection.entity.js';

export { ConnectionEntity };
export const entities = [ConnectionEntity];
