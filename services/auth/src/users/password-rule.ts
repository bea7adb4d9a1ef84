/**
 * spec 02 §5 "Password reset": at least 8 characters with an upper case letter, a lower case letter and a digit.
 * Every password a user chooses for themselves on a screen that states it: the reset, and the first super
 * user's own password that replaces the temporary one at first sign-in.
 */
export const PASSWORD_RULE = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d).{8,50}$/s;
export const PASSWORD_RULE_TEXT = 'Sua senha precisa ter no mínimo 8 caracteres, sendo uma letra maiúscula, uma minúscula e um número.';
