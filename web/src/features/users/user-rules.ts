import { PASSWORD_MAX_LENGTH, type AllTicket, type Profile, type UpdateUserRequest, type UserDto } from '@wa/contracts';
import { ACCOUNT_PASSWORD_MIN, validateConnectionName } from '../../components/form-rules';

/** What is wrong with a field of the user form (texts under `validation`: Required, Too Short!, Too Long!, Invalid email). */
export type UserProblem = 'required' | 'tooShort' | 'tooLong' | 'invalidEmail';

export interface UserFormValues {
  name: string;
  email: string;
  /** blank when editing: the current password stays */
  password: string;
  /** one's own password changes only with the current one (the auth service asks for it) */
  oldPassword: string;
  profile: Profile;
  allTicket: AllTicket;
  /** the default connection; '' for none */
  whatsappId: number | '';
  queueIds: number[];
}

export type UserErrors = Partial<Record<'name' | 'email' | 'password' | 'oldPassword', UserProblem>>;

/** Who is looking: the signed-in user. */
export interface UserViewer {
  id: number;
  isAdmin: boolean;
  isSuper: boolean;
}

export function viewerOfUser(user: Pick<UserDto, 'id' | 'profile' | 'super'> | null | undefined): UserViewer {
  return { id: user?.id ?? -1, isAdmin: user?.profile === 'admin' || user?.super === true, isSuper: user?.super === true };
}

/** spec 01 §5: the name is required, 2 to 50 characters. */
export const validateUserName = validateConnectionName;

/** spec 01 §5: the email is required and valid. */
export function validateUserEmail(email: string): UserProblem | null {
  const e = email.trim();
  if (!e) return 'required';
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(e) ? null : 'invalidEmail';
}

/** spec 01 §5: the password is 5 to 50 characters; when editing, a blank one keeps the current password. */
export function validateUserPassword(password: string, creating: boolean): UserProblem | null {
  if (!password) return creating ? 'required' : null;
  if (password.length < ACCOUNT_PASSWORD_MIN) return 'tooShort';
  if (password.length > PASSWORD_MAX_LENGTH) return 'tooLong';
  return null;
}

/** Which parts of the user dialog show, for this viewer and this user (spec 01 §6, spec 02 §5). */
export interface UserFormFields {
  /** profile, queues, ticket visibility (allTicket) and default connection: admins only */
  profile: boolean;
  queues: boolean;
  allTicket: boolean;
  whatsapp: boolean;
  /** an agent sees their email but cannot change it (the auth service refuses it) */
  emailEditable: boolean;
  /** the current password, asked when one changes one's own */
  oldPassword: boolean;
}

export function userFormFields(
  viewer: Pick<UserViewer, 'id' | 'isAdmin'>,
  target: { id: number } | null,
  passwordTyped: boolean,
): UserFormFields {
  const admin = viewer.isAdmin;
  return {
    profile: admin,
    queues: admin,
    allTicket: admin,
    whatsapp: admin,
    emailEditable: admin || target === null,
    oldPassword: target !== null && target.id === viewer.id && passwordTyped,
  };
}

export function validateUserForm(v: UserFormValues, creating: boolean, fields: Pick<UserFormFields, 'oldPassword'>): UserErrors {
  const errors: UserErrors = {};
  const name = validateUserName(v.name);
  const email = validateUserEmail(v.email);
  const password = validateUserPassword(v.password, creating);
  if (name) errors.name = name;
  if (email) errors.email = email;
  if (password) errors.password = password;
  if (fields.oldPassword && !v.oldPassword) errors.oldPassword = 'required';
  return errors;
}

export const hasUserErrors = (e: UserErrors): boolean => Object.values(e).some(Boolean);

/** A new user: an agent who does not see tickets without a queue. */
export function emptyUserForm(): UserFormValues {
  return { name: '', email: '', password: '', oldPassword: '', profile: 'user', allTicket: 'desabled', whatsappId: '', queueIds: [] };
}

export function userFormOf(user: UserDto | null): UserFormValues {
  if (!user) return emptyUserForm();
  return {
    name: user.name,
    email: user.email,
    password: '',
    oldPassword: '',
    profile: user.profile,
    allTicket: user.allTicket === 'enabled' ? 'enabled' : 'desabled',
    whatsappId: user.whatsappId ?? '',
    queueIds: user.queueIds ?? user.queues?.map((q) => q.id) ?? [],
  };
}

/**
 * The body of the save (`PUT /users/{id}`'s `UpdateUserRequest`; when creating, with the email and password, a
 * `CreateUserRequest`): what the viewer saw, a blank password left out when editing. An agent sends only what they
 * may change (name and password).
 */
export function userPayload(v: UserFormValues, creating: boolean, fields: UserFormFields): UpdateUserRequest {
  const body: UpdateUserRequest = { name: v.name.trim() };
  if (fields.emailEditable) body.email = v.email.trim();
  if (creating || v.password) body.password = v.password;
  if (fields.oldPassword && v.oldPassword) body.oldPassword = v.oldPassword;
  if (fields.profile) body.profile = v.profile;
  if (fields.allTicket) body.allTicket = v.allTicket;
  if (fields.whatsapp) body.whatsappId = v.whatsappId === '' ? null : v.whatsappId;
  if (fields.queues) body.queueIds = [...new Set(v.queueIds)];
  return body;
}

/** The profile choices: user and admin, and supervisor only for a user who already has it (it is kept, not offered). */
export function profileOptions(current: Profile): Profile[] {
  return current === 'supervisor' ? ['user', 'admin', 'supervisor'] : ['user', 'admin'];
}

/** The actions a row offers. Admins manage every user (a super user only by super users) but do not delete themselves; an agent edits only their own account. */
export function userRowActions(viewer: UserViewer, row: Pick<UserDto, 'id' | 'super'>): { edit: boolean; delete: boolean } {
  if (!viewer.isAdmin) return { edit: row.id === viewer.id, delete: false };
  const mayManage = !row.super || viewer.isSuper;
  return { edit: mayManage, delete: mayManage && row.id !== viewer.id };
}

/** spec 02 §7: only admins add users (`POST /users` is for admins). */
export const canAddUser = (viewer: UserViewer): boolean => viewer.isAdmin;

/** The names of a user's queues, from the company's queues (the users list carries only their ids). */
export function queueBadges(
  queueIds: readonly number[],
  queues: ReadonlyArray<{ id: number; name: string; color: string }>,
): Array<{ id: number; name: string; color: string | null }> {
  return queueIds.map((id) => {
    const q = queues.find((x) => x.id === id);
    return q ? { id, name: q.name, color: q.color } : { id, name: `#${id}`, color: null };
  });
}
