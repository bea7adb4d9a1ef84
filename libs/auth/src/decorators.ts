import { createParamDecorator, SetMetadata, type ExecutionContext } from '@nestjs/common';
import type { AccessTokenClaims, Profile } from '@wa/contracts';

export { IS_PUBLIC, Public } from '@wa/server-kit';
export const PROFILES = 'wa:profiles';
export const SUPER_ONLY = 'wa:superOnly';

/** Only these profiles (super users pass too). */
export const Profiles = (...profiles: Profile[]) => SetMetadata(PROFILES, profiles);
export const AdminOnly = () => Profiles('admin');
/** Admins and supervisors (README "Profiles"): the dashboard, tags' kanban mark. */
export const AdminOrSupervisor = () => Profiles('admin', 'supervisor');
export const SuperOnly = () => SetMetadata(SUPER_ONLY, true);

/** The verified claims of the caller's token. */
export const CurrentUser = createParamDecorator((_data: unknown, ctx: ExecutionContext): AccessTokenClaims => {
  return ctx.switchToHttp().getRequest<{ user: AccessTokenClaims }>().user;
});
