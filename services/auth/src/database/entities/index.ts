import { AnnouncementEntity } from './announcement.entity.js';
import { CompanyEntity } from './company.entity.js';
import { HelpEntity } from './help.entity.js';
import { LoginSessionEntity } from './login-session.entity.js';
import { PlanEntity } from './plan.entity.js';
import { RefreshTokenEntity } from './refresh-token.entity.js';
import { SettingEntity } from './setting.entity.js';
import { UserEntity } from './user.entity.js';

export { AnnouncementEntity, CompanyEntity, HelpEntity, LoginSessionEntity, PlanEntity, RefreshTokenEntity, SettingEntity, UserEntity };
export const entities = [
  PlanEntity,
  CompanyEntity,
  SettingEntity,
  UserEntity,
  LoginSessionEntity,
  RefreshTokenEntity,
  HelpEntity,
  AnnouncementEntity,
];
