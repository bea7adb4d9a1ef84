/**
 * spec 02 §5 "Password reset": a password a user chooses for themselves has at least 8 characters (at most 50),
 * with an upper case letter, a lower case letter and a digit. The one rule the server enforces (auth: the reset,
 * and the first super user's own password at first sign-in) and the web checks before sending.
 */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 50;

/** `PASSWORD_RULE.test(password)`: the password follows the rule (any characters, newlines included, count). */
export const PASSWORD_RULE = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d).{8,50}$/s;

/** What a refused password is told (spec 02 §5). */
export const PASSWORD_RULE_TEXT = 'Sua senha precisa ter no mínimo 8 caracteres, sendo uma letra maiúscula, uma minúscula e um número.';
