import { Box, Button, Center, Field, Heading, Input, Link, Stack, Text } from '@chakra-ui/react';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { errorCode, errorText } from '../../app/errors';
import { notify } from '../../app/notify';
import { serverFieldErrors } from '../../components/form-rules';
import {
  hasResetErrors,
  isEmailNotFound,
  normalizeCode,
  resetProblemKey,
  validateReset,
  validateResetEmail,
  type ResetErrors,
  type ResetValues,
} from './password-reset-rules';

/** The account calls (and with them the store): fetched on the first interaction, not with the page. */
const loadAccount = () => import('./account');

type Step = 'ask' | 'reset';
type FieldName = keyof ResetValues;

function Frame({ subtitle, children }: { subtitle: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Center minH="100vh" px="4" py="8" bg="bg.subtle">
      <Box as="main" w="full" maxW="sm" bg="bg" borderRadius="lg" shadow="md" p={{ base: '6', sm: '8' }} data-testid="forgetpsw-page">
        <Stack gap="5">
          <Stack gap="1" textAlign="center">
            <Heading size="xl" color="teal.fg">
              {t('passwordReset.title')}
            </Heading>
            <Text color="fg.muted" textStyle="sm">
              {subtitle}
            </Text>
          </Stack>
          {children}
          <Link asChild color="teal.fg" textStyle="sm" alignSelf="center">
            <RouterLink to="/login" data-testid="forgetpsw-login-link">
              {t('passwordReset.backToLogin')}
            </RouterLink>
          </Link>
        </Stack>
      </Box>
    </Center>
  );
}

/**
 * /forgetpsw (spec 02 §2, §5, §7): step one sends a code to the email; step two takes the email, the code,
 * the new password and its confirmation. Success sends the visitor to /login.
 */
export default function ForgetPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [step, setStep] = useState<Step>('ask');
  const [values, setValues] = useState<ResetValues>({ email: '', code: '', password: '', confirm: '' });
  const [touched, setTouched] = useState(false);
  const [serverErrors, setServerErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [busy, setBusy] = useState(false);
  const errors: ResetErrors = step === 'ask' ? validateResetEmail(values.email) : validateReset(values);
  const problem = (field: FieldName): string | null => {
    const p = errors[field];
    return touched && p ? t(resetProblemKey(p)) : (serverErrors[field] ?? null);
  };

  const set = (field: FieldName, value: string) => {
    setValues((v) => ({ ...v, [field]: field === 'code' ? normalizeCode(value) : value }));
    setServerErrors((e) => (e[field] ? { ...e, [field]: undefined } : e));
  };

  function goTo(next: Step) {
    setStep(next);
    setTouched(false);
    setServerErrors({});
    setValues((v) => ({ ...v, code: '', password: '', confirm: '' }));
  }

  async function ask(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    setTouched(true);
    if (hasResetErrors(errors)) return;
    setBusy(true);
    setServerErrors({});
    try {
      const { askResetCode } = await loadAccount();
      await askResetCode(values.email.trim());
      notify.success(t('passwordReset.sent'));
      goTo('reset');
    } catch (err) {
      if (isEmailNotFound(err)) setServerErrors({ email: t('passwordReset.emailNotFound') });
      else notify.error(err);
    } finally {
      setBusy(false);
    }
  }

  async function reset(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    setTouched(true);
    if (hasResetErrors(errors)) return;
    setBusy(true);
    setServerErrors({});
    try {
      const { resetPassword } = await loadAccount();
      await resetPassword(values.email.trim(), values.code.trim(), values.password);
      notify.success(t('passwordReset.done'));
      navigate('/login', { replace: true });
    } catch (err) {
      setBusy(false);
      const code = errorCode(err);
      if (code === 'ERR_INVALID_RESET_CODE') {
        setServerErrors({ code: errorText(err) });
        notify.error(err);
      } else if (code === 'ERR_VALIDATION') {
        const fields = serverFieldErrors(err);
        const text = fields.newPassword ?? fields.email ?? errorText(err);
        setServerErrors(fields.email ? { email: fields.email } : { password: text });
        notify.errorText(text);
      } else notify.error(err);
    }
  }

  const input = (
    name: FieldName,
    label: string,
    type: string,
    autoComplete: string,
    extra: { inputMode?: 'numeric'; autoFocus?: boolean } = {},
  ) => (
    <Field.Root required invalid={!!problem(name)}>
      <Field.Label>{label}</Field.Label>
      <Input
        type={type}
        name={name}
        autoComplete={autoComplete}
        value={values[name]}
        onChange={(e) => set(name, e.target.value)}
        {...extra}
        data-testid={`forgetpsw-${name}`}
      />
      {problem(name) && <Field.ErrorText>{problem(name)}</Field.ErrorText>}
    </Field.Root>
  );

  const prefetch = { onKeyDown: () => void loadAccount(), onPointerDown: () => void loadAccount() };

  if (step === 'ask')
    return (
      <Frame subtitle={t('passwordReset.askSubtitle')}>
        <form onSubmit={ask} noValidate {...prefetch} data-testid="forgetpsw-ask-form">
          <Stack gap="5">
            {input('email', t('passwordReset.email'), 'email', 'email', { autoFocus: true })}
            <Button type="submit" colorPalette="teal" loading={busy} data-testid="forgetpsw-send">
              {t('passwordReset.send')}
            </Button>
          </Stack>
        </form>
      </Frame>
    );

  return (
    <Frame subtitle={t('passwordReset.resetSubtitle')}>
      <form onSubmit={reset} noValidate {...prefetch} data-testid="forgetpsw-reset-form">
        <Stack gap="4">
          {input('email', t('passwordReset.email'), 'email', 'email')}
          {input('code', t('passwordReset.code'), 'text', 'one-time-code', { inputMode: 'numeric', autoFocus: true })}
          {input('password', t('passwordReset.newPassword'), 'password', 'new-password')}
          {input('confirm', t('passwordReset.confirm'), 'password', 'new-password')}
          <Button type="submit" colorPalette="teal" loading={busy} data-testid="forgetpsw-reset">
            {t('passwordReset.reset')}
          </Button>
          <Button type="button" variant="plain" size="sm" color="teal.fg" onClick={() => goTo('ask')} data-testid="forgetpsw-resend">
            {t('passwordReset.resend')}
          </Button>
        </Stack>
      </form>
    </Frame>
  );
}
