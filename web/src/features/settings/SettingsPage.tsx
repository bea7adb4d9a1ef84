import { Box, Center, Field, Heading, NativeSelect, SimpleGrid, Spinner, Tabs, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router-dom';
import { errorText } from '../../app/errors';
import { notify } from '../../app/notify';
import { selectIsAdmin, selectUser } from '../../app/session';
import { useAppSelector } from '../../app/store';
import { serverFieldErrors } from '../../components/form-rules';
import { CompaniesTab } from '../platform/CompaniesTab';
import { HelpsTab } from '../platform/HelpsTab';
import { IntegrationSettings } from './IntegrationSettings';
import { PlansTab } from '../platform/PlansTab';
import { SessionsTab } from '../platform/SessionsTab';
import { integrationGroups, scheduleTypeOf, selectableSettings, type IntegrationGroup, type SelectableSetting } from './settings-rules';
import { useGetCompanyQuery, useSettingsQuery, useUpdateCompanySchedulesMutation } from './settings.api';
import { useSaveSetting } from './use-save-setting';
import { sevenDaysOf, type WorkingDay } from './working-hours';
import { WorkingHoursEditor } from './WorkingHoursEditor';

type SettingsTab = 'options' | 'schedules' | 'companies' | 'plans' | 'helps' | 'sessions';

/** spec 02 §6: the super flag brings the provider's tabs (Empresas, Planos and Ajuda; Sessões, issue 43 §5). */
const selectIsSuper = (s: Parameters<typeof selectUser>[0]) => selectUser(s)?.super === true;

/**
 * /settings (spec 02 §2 "Settings"), admins only: the Opcoes tab (one selector per setting the company has,
 * each saved on change, then its Integrações fields), when scheduleType is company the Horarios tab (the company's working hours) and, for
 * super users, the Empresas (CompaniesTab), Planos (PlansTab), Ajuda (HelpsTab) and Sessões (SessionsTab: the WhatsApp
 * sessions' replicas and connections) tabs.
 */
export default function SettingsPage() {
  const { t } = useTranslation();
  const isAdmin = useAppSelector(selectIsAdmin);
  const isSuper = useAppSelector(selectIsSuper);
  const companyId = useAppSelector(selectUser)?.companyId;
  const { data: settings, isLoading, isError, error } = useSettingsQuery(undefined, { skip: !isAdmin });
  const [chosenTab, setTab] = useState<SettingsTab>('options');
  const showSchedules = scheduleTypeOf(settings) === 'company';
  // the Horarios tab goes when scheduleType stops being company, the Empresas, Planos, Ajuda and Sessões tabs with the super flag
  const superTab = chosenTab === 'companies' || chosenTab === 'plans' || chosenTab === 'helps' || chosenTab === 'sessions';
  const tab: SettingsTab = (chosenTab === 'schedules' && !showSchedules) || (superTab && !isSuper) ? 'options' : chosenTab;

  // an administration screen (spec 01 §2 "admin group"), as the queues are
  if (!isAdmin) return <Navigate to="/tickets" replace />;

  return (
    <Box p={{ base: '3', md: '6' }} maxW="5xl" data-testid="settings-page">
      <Heading size="lg" mb="4" data-testid="settings-title">
        {t('settings.title')}
      </Heading>
      <Box bg="bg" borderRadius="md" borderWidth="1px" p={{ base: '3', md: '5' }}>
        <Tabs.Root value={tab} onValueChange={(e) => setTab(e.value as SettingsTab)} size="sm" variant="line" lazyMount>
          <Tabs.List mb="4">
            <Tabs.Trigger value="options" data-testid="settings-tab-options">
              {t('settings.tabs.options')}
            </Tabs.Trigger>
            {showSchedules && (
              <Tabs.Trigger value="schedules" data-testid="settings-tab-schedules">
                {t('settings.tabs.schedules')}
              </Tabs.Trigger>
            )}
            {isSuper && (
              <Tabs.Trigger value="companies" data-testid="settings-tab-companies">
                {t('settings.tabs.companies')}
              </Tabs.Trigger>
            )}
            {isSuper && (
              <Tabs.Trigger value="plans" data-testid="settings-tab-plans">
                {t('settings.tabs.plans')}
              </Tabs.Trigger>
            )}
            {isSuper && (
              <Tabs.Trigger value="helps" data-testid="settings-tab-helps">
                {t('settings.tabs.helps')}
              </Tabs.Trigger>
            )}
            {isSuper && (
              <Tabs.Trigger value="sessions" data-testid="settings-tab-sessions">
                {t('settings.tabs.sessions')}
              </Tabs.Trigger>
            )}
          </Tabs.List>
          <Tabs.Content value="options">
            {isLoading && (
              <Center py="8">
                <Spinner />
              </Center>
            )}
            {isError && (
              <Center py="8" color="fg.error" data-testid="settings-error">
                {errorText(error)}
              </Center>
            )}
            {settings && <SettingOptions settings={selectableSettings(settings, { isSuper })} integrations={integrationGroups(settings)} />}
          </Tabs.Content>
          {showSchedules && (
            <Tabs.Content value="schedules">{companyId ? <CompanyWorkingHours companyId={companyId} /> : null}</Tabs.Content>
          )}
          {isSuper && (
            <Tabs.Content value="companies">
              <CompaniesTab />
            </Tabs.Content>
          )}
          {isSuper && (
            <Tabs.Content value="plans">
              <PlansTab />
            </Tabs.Content>
          )}
          {isSuper && (
            <Tabs.Content value="helps">
              <HelpsTab />
            </Tabs.Content>
          )}
          {isSuper && (
            <Tabs.Content value="sessions">
              <SessionsTab />
            </Tabs.Content>
          )}
        </Tabs.Root>
      </Box>
    </Box>
  );
}

/**
 * The Opcoes tab: a selector per setting, saved as soon as it changes ('Operação atualizada com sucesso.'),
 * then the Integrações fields (IntegrationSettings), saved the same way.
 */
function SettingOptions({ settings, integrations }: { settings: SelectableSetting[]; integrations: IntegrationGroup[] }) {
  const { t } = useTranslation();
  const { save, busy } = useSaveSetting();

  function change(key: string, value: string) {
    void save(key, value);
  }

  if (settings.length === 0 && integrations.length === 0) {
    return (
      <Center py="8" color="fg.muted" data-testid="settings-empty">
        {t('common.noRecords')}
      </Center>
    );
  }

  return (
    <>
      {settings.length > 0 && (
        <SimpleGrid columns={{ base: 1, md: 2 }} gap="4" data-testid="settings-options">
          {settings.map((s) => (
            <Field.Root key={s.key} disabled={busy.has(s.key)} data-testid={`setting-${s.key}`}>
              <Field.Label>{t(`settings.options.${s.key}.label`)}</Field.Label>
              <NativeSelect.Root size="sm">
                <NativeSelect.Field value={s.value} onChange={(e) => change(s.key, e.target.value)} data-testid={`setting-${s.key}-select`}>
                  {s.values.map((v) => (
                    <option key={v} value={v}>
                      {t(`settings.options.${s.key}.${v}`, { defaultValue: v })}
                    </option>
                  ))}
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
            </Field.Root>
          ))}
        </SimpleGrid>
      )}
      <IntegrationSettings groups={integrations} busy={busy} save={save} />
    </>
  );
}

/** The Horarios tab: the company's working hours (`GET /companies/{id}`), saved with `PUT /companies/{id}/schedules`. */
function CompanyWorkingHours({ companyId }: { companyId: number }) {
  const { t } = useTranslation();
  const { data: company, isLoading, isError, error } = useGetCompanyQuery(companyId);
  const [save, saving] = useUpdateCompanySchedulesMutation();
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});

  async function submit(schedules: WorkingDay[]) {
    try {
      await save({ companyId, schedules }).unwrap();
      setServerErrors({});
      notify.success(t('settings.toasts.schedulesSaved'));
    } catch (err) {
      setServerErrors(serverFieldErrors(err));
      notify.error(err);
    }
  }

  if (isLoading) {
    return (
      <Center py="8">
        <Spinner />
      </Center>
    );
  }
  if (isError || !company) {
    return (
      <Center py="8" color="fg.error" data-testid="settings-schedules-error">
        {errorText(error)}
      </Center>
    );
  }
  const hasHours = (company.schedules?.length ?? 0) > 0;
  return (
    <Box data-testid="settings-schedules">
      <Text textStyle="sm" color="fg.muted" mb="4">
        {t('settings.schedules.intro')}
      </Text>
      {/* the defaults are offered while the company has none; it has hours only once they are saved */}
      <WorkingHoursEditor
        key={company.id}
        initial={sevenDaysOf(company.schedules)}
        onSave={submit}
        saveLabel={t('common.save')}
        saving={saving.isLoading}
        serverErrors={serverErrors}
        testId="company-schedules"
      >
        {!hasHours && (
          <Text textStyle="xs" color="fg.warning" data-testid="company-schedules-none">
            {t('settings.schedules.noneSaved')}
          </Text>
        )}
      </WorkingHoursEditor>
    </Box>
  );
}
