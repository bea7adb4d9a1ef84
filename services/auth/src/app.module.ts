import { CompanyAccessController, PlanUsageController } from './company-access/company-access.controller.js';
import { CompaniesAdminService } from './companies/companies-admin.service.js';
import { CompaniesController } from './companies/companies.controller.js';
import { HelpsController, HelpsService } from './helps/helps.js';
import { AnnouncementsController, AnnouncementsService } from './announcements/announcements.js';
import { SignupController } from './signup/signup.controller.js';
import { SignupService } from './signup/signup.service.js';
import { PlansCopyConsumer } from './plans/plans-copy.consumer.js';
import { PlanEpochs } from './plans/plan-epochs.js';
import { InvoicePaidConsumer } from './renewals/consumers/invoice-paid.consumer.js';
import { RenewalsRepository } from './renewals/renewals.repository.js';
import { RenewalsService } from './renewals/renewals.service.js';
import { PasswordResetController } from './password-reset/password-reset.controller.js';
import { PasswordResetService } from './password-reset/password-reset.service.js';
import { Module, type DynamicModule } from '@nestjs/common';
import { AuthLibModule } from '@wa/auth';
import { MediaStorage, mediaStorageFrom, serviceModules } from '@wa/server-kit';
import { CompanyRefs } from './company-refs/company-refs.js';
import { CompanyRefsRepository } from './company-refs/company-refs.repository.js';
import { CompaniesRepository } from './companies/companies.repository.js';
import { CompaniesService } from './companies/companies.service.js';
import { CompanyAccessService } from './company-access/company-access.service.js';
import { HelpsRepository } from './helps/helps.repository.js';
import { AnnouncementsRepository } from './announcements/announcements.repository.js';
import { PasswordResetsRepository } from './password-reset/password-resets.repository.js';
import { PlansRepository } from './plans/plans.repository.js';
import { SessionsRepository } from './sessions/sessions.repository.js';
import { SettingsRepository } from './settings/settings.repository.js';
import { SettingsService } from './settings/settings.service.js';
import { AuthEnv } from './config/env.js';
import { authDatabase } from './database/data-source.js';
import { Outbox } from './outbox/outbox.service.js';
import { LoginLimiter } from './sessions/login-limiter.js';
import { SessionsController } from './sessions/sessions.controller.js';
import { SessionsService } from './sessions/sessions.service.js';
import { SettingsController } from './settings/settings.controller.js';
import { SettingSecrets } from './settings/setting-secrets.js';
import { UsersController } from './users/users.controller.js';
import { UsersRepository } from './users/users.repository.js';
import { UsersService } from './users/users.service.js';
import { VersionController } from './version/version.controller.js';

export const SERVICE = 'auth';

@Module({})
export class AppModule {
  static register(env: AuthEnv): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ...serviceModules({ service: SERVICE, env, database: authDatabase(env.DATABASE_URL, env.DATABASE_POOL_SIZE) }),
        AuthLibModule.forRoot({ secret: env.JWT_SECRET, directoryOwner: true }),
      ],
      controllers: [
        CompanyAccessController,
        PlanUsageController,
        CompaniesController,
        HelpsController,
        AnnouncementsController,
        SessionsController,
        UsersController,
        SettingsController,
        VersionController,
        PasswordResetController,
        SignupController,
      ],
      providers: [
        { provide: AuthEnv, useValue: env },
        Outbox,
        CompanyRefs,
        LoginLimiter,
        SessionsService,
        UsersService,
        UsersRepository,
        PasswordResetService,
        SignupService,
        PlansCopyConsumer,
        PlanEpochs,
        RenewalsService,
        InvoicePaidConsumer,
        CompaniesAdminService,
        HelpsService,
        AnnouncementsService,
        SettingSecrets,
        SettingsService,
        CompaniesService,
        CompanyAccessService,
        // repositories: the service's SQL and TypeORM
        CompaniesRepository,
        CompanyRefsRepository,
        HelpsRepository,
        AnnouncementsRepository,
        PasswordResetsRepository,
        PlansRepository,
        RenewalsRepository,
        SessionsRepository,
        SettingsRepository,
        { provide: MediaStorage, useValue: mediaStorageFrom(env) },
      ],
    };
  }
}
