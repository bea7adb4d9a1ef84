import { Alert, Box, Button, Center, Field, Heading, HStack, Input, Link, NativeSelect, Stack, Text } from '@chakra-ui/react';
import type { PublicPlanDto } from '@wa/contracts';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { errorText } from '../../app/errors';
import { notify } from '../../app/notify';
import { fetchPublicPlans } from './public-plans';
import {
  hasSignupErrors,
  planLabel,
  signupFailure,
  signupRequest,
  validateSignup,
  type SignupErrors,
  type SignupValues,
} from './signup-rules';

/** The account calls (and with them the store): fetched on the first interaction, not with the page. */
const loadAccount = () => import('./account');

type FieldName = keyof SignupValues;

function usePublicPlans() {
  const [plans, setPlans] = useState<PublicPlanDto[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    let live = true;
    setError(null);
    fetchPublicPlans()
      .then((list) => live && setPlans(list))
      .catch((err: unknown) => live && setError(errorText(err)));
    return () => {
      live = false;
    };
  }, []);
  useEffect(load, [load]);
  return { plans, error, reload: load };
}

/**
 * /signup (spec 01 §2, §8): a company signs itself up: its name, email, optional phone, password and one of
 * the public plans (listed without cookies). Success sends the visitor to /login.
 */
export default function SignupPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { plans, error: plansError, reload } = usePublicPlans();
  const [values, setValues] = useState<SignupValues>({ name: '', email: '', phone: '', password: '', planId: '' });
  const [touched, setTouched] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const errors: SignupErrors = validateSignup(values);
  const problem = (field: FieldName): string | null =>
    touched && errors[field] ? t(`validation.${errors[field]}`) : (serverErrors[field] ?? null);

  const set = (field: FieldName) => (value: string) => {
    setValues((v) => ({ ...v, [field]: field === 'planId' ? (value ? Number(value) : '') : value }));
    setServerErrors((e) => (e[field] ? { ...e, [field]: '' } : e));
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (saving) return;
    setTouched(true);
    if (hasSignupErrors(errors)) return;
    setSaving(true);
    setServerErrors({});
    setNotice(null);
    try {
      const { signUp } = await loadAccount();
      await signUp(signupRequest(values));
      notify.success(t('signup.success'));
      navigate('/login', { replace: true });
    } catch (err) {
      setSaving(false);
      const failure = signupFailure(err);
      setServerErrors(failure.fields);
      setNotice(failure.notice);
      notify.errorText(t('signup.failure'));
    }
  }

  const field = (name: Exclude<FieldName, 'planId'>, type: string, autoComplete: string, required = true) => (
    <Field.Root required={required} invalid={!!problem(name)}>
      <Field.Label>{t(`signup.${name}`)}</Field.Label>
      <Input
        type={type}
        name={name}
        autoComplete={autoComplete}
        value={values[name]}
        onChange={(e) => set(name)(e.target.value)}
        data-testid={`signup-${name}`}
      />
      {problem(name) && <Field.ErrorText>{problem(name)}</Field.ErrorText>}
    </Field.Root>
  );

  return (
    <Center minH="100vh" px="4" py="8" bg="bg.subtle">
      <Box as="main" w="full" maxW="md" bg="bg" borderRadius="lg" shadow="md" p={{ base: '6', sm: '8' }} data-testid="signup-page">
        <form
          onSubmit={submit}
          onKeyDown={() => void loadAccount()}
          onPointerDown={() => void loadAccount()}
          noValidate
          data-testid="signup-form"
        >
          <Stack gap="5">
            <Stack gap="1" textAlign="center">
              <Heading size="2xl" color="teal.fg">
                {t('signup.title')}
              </Heading>
              <Text color="fg.muted" textStyle="sm">
                {t('signup.subtitle')}
              </Text>
            </Stack>
            {notice && (
              <Alert.Root status="error" data-testid="signup-error">
                <Alert.Indicator />
                <Alert.Title>{notice}</Alert.Title>
              </Alert.Root>
            )}
            {field('name', 'text', 'organization')}
            {field('email', 'email', 'email')}
            {field('phone', 'tel', 'tel', false)}
            {field('password', 'password', 'new-password')}
            <Field.Root required invalid={!!problem('planId')}>
              <Field.Label>{t('signup.plan')}</Field.Label>
              <NativeSelect.Root disabled={!plans}>
                <NativeSelect.Field
                  name="plan"
                  value={values.planId}
                  onChange={(e) => set('planId')(e.target.value)}
                  data-testid="signup-plan"
                >
                  <option value="">{t('signup.selectPlan')}</option>
                  {(plans ?? []).map((plan) => (
                    <option key={plan.id} value={plan.id}>
                      {planLabel(plan, t, i18n.language)}
                    </option>
                  ))}
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
              {problem('planId') && <Field.ErrorText>{problem('planId')}</Field.ErrorText>}
            </Field.Root>
            {plansError && (
              <Alert.Root status="warning" data-testid="signup-plans-error">
                <Alert.Indicator />
                <Alert.Title flex="1">
                  {t('signup.plansError')} {plansError}
                </Alert.Title>
                <Button size="xs" variant="outline" onClick={reload}>
                  {t('signup.retry')}
                </Button>
              </Alert.Root>
            )}
            <Button type="submit" colorPalette="teal" loading={saving} data-testid="signup-submit">
              {t('signup.submit')}
            </Button>
            <HStack justify="center" gap="1" textStyle="sm">
              <Text color="fg.muted">{t('signup.haveAccount')}</Text>
              <Link asChild color="teal.fg">
                <RouterLink to="/login" data-testid="signup-login-link">
                  {t('signup.toLogin')}
                </RouterLink>
              </Link>
            </HStack>
          </Stack>
        </form>
      </Box>
    </Center>
  );
}
