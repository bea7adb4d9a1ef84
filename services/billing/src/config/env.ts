import { InfraEnv } from '@wa/server-kit';
import { IsString } from 'class-validator';

export class BillingEnv extends InfraEnv {
  override PORT: number = 3105;

  /** auth, asked how many companies are on a plan before it is deleted */
  @IsString()
  AUTH_URL: string = 'http://127.0.0.1:3101';
}
