import { describe, expect, it } from '@jest/globals';
import type { UserDto } from '@wa/contracts';
import {
  canAddUser,
  emptyUserForm,
  profileOptions,
  queueBadges,
  userFormFields,
  userFormOf,
  userPayload,
  userRowActions,
  validateUserEmail,
  validateUserForm,
  validateUserName,
  validateUserPassword,
  viewerOfUser,
} from '../user-rules';

const admin = viewerOfUser({ id: 1, profile: 'admin', super: false });
const agent = viewerOfUser({ id: 2, profile: 'user', super: false });
const provider = viewerOfUser({ id: 3, profile: 'user', super: true });

const ana = {
  id: 5,
  name: 'Ana',
  email: 'ana@x.com',
  profile: 'user',
  allTicket: 'enabled',
  whatsappId: 4,
  queues: [{ id: 10 }],
  queueIds: [10],
  super: false,
} as UserDto;

describe('user form validation (spec 01 §5)', () => {
  it('name: required, 2 to 50', () => {
    expect(validateUserName('')).toBe('required');
    expect(validateUserName('  ')).toBe('required');
    expect(validateUserName('A')).toBe('tooShort');
    expect(validateUserName('x'.repeat(51))).toBe('tooLong');
    expect(validateUserName('Ana')).toBeNull();
  });

  it('email: required and valid', () => {
    expect(validateUserEmail('')).toBe('required');
    expect(validateUserEmail('ana')).toBe('invalidEmail');
    expect(validateUserEmail('ana@x')).toBe('invalidEmail');
    expect(validateUserEmail(' ana@x.com ')).toBeNull();
  });

  it('password: 5 to 50 when adding; blank keeps the current one when editing', () => {
    expect(validateUserPassword('', true)).toBe('required');
    expect(validateUserPassword('1234', true)).toBe('tooShort');
    expect(validateUserPassword('x'.repeat(51), true)).toBe('tooLong');
    expect(validateUserPassword('12345', true)).toBeNull();
    expect(validateUserPassword('', false)).toBeNull();
    expect(validateUserPassword('1234', false)).toBe('tooShort');
  });

  it('whole form: the problems of each field; the current password when asked', () => {
    expect(validateUserForm(emptyUserForm(), true, { oldPassword: false })).toEqual({
      name: 'required',
      email: 'required',
      password: 'required',
    });
    const filled = { ...emptyUserForm(), name: 'Ana', email: 'ana@x.com', password: 'secret1' };
    expect(validateUserForm(filled, true, { oldPassword: false })).toEqual({});
    expect(validateUserForm(filled, false, { oldPassword: true })).toEqual({ oldPassword: 'required' });
    expect(validateUserForm({ ...filled, oldPassword: 'old' }, false, { oldPassword: true })).toEqual({});
  });
});

describe('what admins and agents see (spec 01 §6, spec 02 §5)', () => {
  it('admins (or super users) set profile, queues, ticket visibility and default connection; agents do not', () => {
    expect(userFormFields(admin, ana, false)).toEqual({
      profile: true,
      queues: true,
      allTicket: true,
      whatsapp: true,
      emailEditable: true,
      oldPassword: false,
    });
    expect(userFormFields(provider, null, false)).toMatchObject({ profile: true, queues: true, allTicket: true, whatsapp: true });
    expect(userFormFields(agent, { id: 2 }, false)).toEqual({
      profile: false,
      queues: false,
      allTicket: false,
      whatsapp: false,
      emailEditable: false,
      oldPassword: false,
    });
  });

  it("asks the current password when one changes one's own", () => {
    expect(userFormFields(agent, { id: 2 }, true).oldPassword).toBe(true);
    expect(userFormFields(admin, { id: 1 }, true).oldPassword).toBe(true);
    expect(userFormFields(admin, ana, true).oldPassword).toBe(false);
    expect(userFormFields(admin, null, true).oldPassword).toBe(false);
  });

  it('admins add, edit and delete users (not themselves, not a super user unless super); agents edit only their own account', () => {
    expect(canAddUser(admin)).toBe(true);
    expect(canAddUser(agent)).toBe(false);
    expect(userRowActions(admin, ana)).toEqual({ edit: true, delete: true });
    expect(userRowActions(admin, { id: 1, super: false })).toEqual({ edit: true, delete: false });
    expect(userRowActions(admin, { id: 9, super: true })).toEqual({ edit: false, delete: false });
    expect(userRowActions(provider, { id: 9, super: true })).toEqual({ edit: true, delete: true });
    expect(userRowActions(agent, ana)).toEqual({ edit: false, delete: false });
    expect(userRowActions(agent, { id: 2, super: false })).toEqual({ edit: true, delete: false });
  });

  it('offers user and admin as profiles; a supervisor keeps theirs', () => {
    expect(profileOptions('user')).toEqual(['user', 'admin']);
    expect(profileOptions('supervisor')).toEqual(['user', 'admin', 'supervisor']);
  });
});

describe('the save', () => {
  it('a new user (admin): every field, no connection as null', () => {
    const v = {
      ...emptyUserForm(),
      name: ' Bia ',
      email: ' bia@x.com ',
      password: 'secret1',
      profile: 'admin' as const,
      queueIds: [10, 11, 10],
    };
    expect(userPayload(v, true, userFormFields(admin, null, true))).toEqual({
      name: 'Bia',
      email: 'bia@x.com',
      password: 'secret1',
      profile: 'admin',
      allTicket: 'desabled',
      whatsappId: null,
      queueIds: [10, 11],
    });
  });

  it('an edit leaves a blank password out', () => {
    const v = userFormOf(ana);
    expect(v).toMatchObject({ name: 'Ana', password: '', allTicket: 'enabled', whatsappId: 4, queueIds: [10] });
    const body = userPayload(v, false, userFormFields(admin, ana, false));
    expect(body).not.toHaveProperty('password');
    expect(body).toEqual({ name: 'Ana', email: 'ana@x.com', profile: 'user', allTicket: 'enabled', whatsappId: 4, queueIds: [10] });
  });

  it('an agent sends only their name and password (with the current one)', () => {
    const me = { ...ana, id: 2 };
    const v = { ...userFormOf(me), name: 'Ana Souza', password: 'newpass', oldPassword: 'oldpass' };
    expect(userPayload(v, false, userFormFields(agent, me, true))).toEqual({
      name: 'Ana Souza',
      password: 'newpass',
      oldPassword: 'oldpass',
    });
  });

  it("names a user's queues from the company's queues", () => {
    expect(queueBadges([10, 99], [{ id: 10, name: 'Vendas', color: '#f00' }])).toEqual([
      { id: 10, name: 'Vendas', color: '#f00' },
      { id: 99, name: '#99', color: null },
    ]);
  });
});
