import { PASSWORD_RULE } from '@wa/contracts';
import { Alert, Box, Button, Center, Field, Heading, HStack, Input, Link, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { errorCode } from '../../app/errors';
import { notify } from '../../app/notify';
import { changeLanguage, currentLanguage, isLanguage, LANGUAGES } from '../../app/i18n';
import { clearSessionEndNotice, peekSessionEndNotice } from './session-end-notice';

/** The session code (the Redux store and the API slice): fetched on the first interaction, not with the page. */
const loadSignIn = () => import('./sign-in');

export default function LoginPage() {
  const { t } = useTranslation();
  const [isLoading, setLoading] = useState(false);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  // a password someone else chose (the first super user's): the sign-in sets the user's own
  const [mustChange, setMustChange] = useState(false);
  const [newPassword, setNewPassword] = useState('');
  // the server's rule for a password of one's own (spec 02 §5)
  const newPasswordOk = PASSWORD_RULE.test(newPassword);
  // kept until a sign-in: the page of the ended session may still mount this page (a slow chunk) after it
  // left the notice and before its reload, and must not take the notice from the page after the reload
  const [notice] = useState(peekSessionEndNotice);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (isLoading) return;
    setLoading(true);
    try {
      const { signIn, expiryDaysAfterSignIn } = await loadSignIn();
      const user = await signIn(email.trim(), password, mustChange ? newPassword : undefined);
      clearSessionEndNotice();
      notify.success(t('login.success'));
      const days = expiryDaysAfterSignIn(user);
      if (days !== null) notify.warning(t('auth.expiry', { days }), 10_000);
    } catch (err) {
      setLoading(false);
      if (errorCode(err) === 'ERR_PASSWORD_CHANGE_REQUIRED') setMustChange(true);
      else notify.error(err);
    }
  }

  return (
    <Center minH="100vh" px="4" bg="bg.subtle">
      <Box as="main" w="full" maxW="sm" bg="bg" borderRadius="lg" shadow="md" p={{ base: '6', sm: '8' }}>
        <form
          onSubmit={submit}
          onKeyDown={() => void loadSignIn()}
          onPointerDown={() => void loadSignIn()}
          noValidate
          data-testid="login-form"
        >
          <Stack gap="6">
            <Stack gap="1" textAlign="center">
              <Heading size="2xl" color="teal.fg">
                Conversa
              </Heading>
              <Text color="fg.muted" textStyle="sm">
                {t('login.subtitle')}
              </Text>
            </Stack>
            {notice && (
              <Alert.Root status="warning" data-testid="session-ended-notice">
                <Alert.Indicator />
                <Alert.Title>{t(notice)}</Alert.Title>
              </Alert.Root>
            )}
            <Field.Root required>
              <Field.Label>{t('login.email')}</Field.Label>
              <Input
                type="email"
                name="email"
                autoComplete="username"
                autoFocus
                value={email}
                onChange={(e) => setEmail(e.target.value)}
                data-testid="login-email"
              />
            </Field.Root>
            <Field.Root required>
              <Field.Label>{t('login.password')}</Field.Label>
              <Input
                type="password"
                name="password"
                autoComplete="current-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                data-testid="login-password"
              />
            </Field.Root>
            {mustChange && (
              <>
                <Alert.Root status="info" data-testid="login-must-change">
                  <Alert.Indicator />
                  <Alert.Title>{t('login.mustChange')}</Alert.Title>
                </Alert.Root>
                <Field.Root required invalid={newPassword.length > 0 && !newPasswordOk}>
                  <Field.Label>{t('login.newPassword')}</Field.Label>
                  <Input
                    type="password"
                    name="new-password"
                    autoComplete="new-password"
                    autoFocus
                    value={newPassword}
                    onChange={(e) => setNewPassword(e.target.value)}
                    data-testid="login-new-password"
                  />
                  {newPassword.length > 0 && !newPasswordOk && (
                    <Field.ErrorText data-testid="login-new-password-rule">{t('passwordReset.validation.weakPassword')}</Field.ErrorText>
                  )}
                </Field.Root>
              </>
            )}
            <Button
              type="submit"
              colorPalette="teal"
              loading={isLoading}
              disabled={!email.trim() || !password || (mustChange && !newPasswordOk)}
              data-testid="login-submit"
            >
              {t('login.submit')}
            </Button>
            <Stack gap="1" align="center" textStyle="sm">
              <Link asChild color="teal.fg">
                <RouterLink to="/forgetpsw" data-testid="login-forgot-link">
                  {t('login.forgot')}
                </RouterLink>
              </Link>
              <HStack gap="1">
                <Text color="fg.muted">{t('login.noAccount')}</Text>
                <Link asChild color="teal.fg">
                  <RouterLink to="/signup" data-testid="login-signup-link">
                    {t('login.signup')}
                  </RouterLink>
                </Link>
              </HStack>
            </Stack>
            <HStack justify="space-between" textStyle="sm">
              <Link href="/term" target="_blank" rel="noopener noreferrer" color="teal.fg">
                {t('login.terms')}
              </Link>
              <Link href="/privacy" target="_blank" rel="noopener noreferrer" color="teal.fg">
                {t('login.privacy')}
              </Link>
            </HStack>
            <NativeSelect.Root size="sm" width="auto" alignSelf="center">
              <NativeSelect.Field
                aria-label={t('topBar.language')}
                value={currentLanguage()}
                onChange={(e) => isLanguage(e.target.value) && void changeLanguage(e.target.value)}
                data-testid="login-language"
              >
                {LANGUAGES.map((lng) => (
                  <option key={lng} value={lng}>
                    {t(`languages.${lng}`)}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </Stack>
        </form>
      </Box>
    </Center>
  );
}
