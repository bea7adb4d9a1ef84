import { Box, Button, Heading, HStack, IconButton, Input, SimpleGrid, Table, Text } from '@chakra-ui/react';
import { CAMPAIGN_INTERVALS, DEFAULT_OPT_OUT_KEYWORDS } from '@wa/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdAdd, MdDelete } from 'react-icons/md';
import { addVariable, parseCampaignSettings, parseKeywords, type CampaignSettingsValues } from './campaign-rules';
import { useCampaignSettingsQuery, useSaveCampaignSettingsMutation } from './campaigns.api';
import { CampaignPageBox, withCampaignsGate } from './CampaignsGate';
import { campaignNotify, OptionSelect } from './ui';

type IntervalKey = keyof typeof CAMPAIGN_INTERVALS;
const INTERVAL_KEYS = Object.keys(CAMPAIGN_INTERVALS) as IntervalKey[];

/** /campaigns-config (spec 02 §2, §9): the three interval selects and the custom variables (shortcut, content), saved together. */
function CampaignSettingsPage() {
  const { t } = useTranslation();
  const { data, isSuccess } = useCampaignSettingsQuery();
  const [save, saving] = useSaveCampaignSettingsMutation();
  const [values, setValues] = useState<CampaignSettingsValues>(() => parseCampaignSettings(undefined));
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const [keywords, setKeywords] = useState('');

  useEffect(() => {
    if (!isSuccess) return;
    const saved = parseCampaignSettings(data);
    setValues(saved);
    setKeywords(saved.optOutKeywords?.join(', ') ?? '');
  }, [data, isSuccess]);

  function add() {
    setValues((v) => ({ ...v, variables: addVariable(v.variables, { key, value }) }));
    setKey('');
    setValue('');
  }

  async function submit() {
    try {
      // words left blank: the server's defaults (sent as such once the company had its own)
      const words = keywords.trim() ? parseKeywords(keywords) : values.optOutKeywords ? [...DEFAULT_OPT_OUT_KEYWORDS] : undefined;
      await save({ settings: { ...values, optOutKeywords: words } }).unwrap();
      campaignNotify.success(t('campaignSettings.saved'));
    } catch (err) {
      campaignNotify.error(err);
    }
  }

  return (
    <CampaignPageBox data-testid="campaign-settings-page" overflowY="auto">
      <Heading size="lg" mb="4">
        {t('campaignSettings.title')}
      </Heading>
      <Box bg="bg" borderWidth="1px" borderRadius="md" p="4" mb="4">
        <Heading size="sm" mb="3">
          {t('campaignSettings.intervals')}
        </Heading>
        <SimpleGrid columns={{ base: 1, md: 3 }} gap="4">
          {INTERVAL_KEYS.map((k) => (
            <OptionSelect
              key={k}
              label={t(`campaignSettings.${k}`)}
              value={String(values[k])}
              onChange={(v) => setValues((s) => ({ ...s, [k]: Number(v) }))}
              options={CAMPAIGN_INTERVALS[k].options.map((o) => ({
                value: String(o),
                label:
                  o === 0
                    ? t('campaignSettings.noInterval')
                    : t(k === 'longerIntervalAfter' ? 'campaignSettings.messages' : 'campaignSettings.seconds', { count: o }),
              }))}
              testId={`campaign-settings-${k}`}
            />
          ))}
        </SimpleGrid>
      </Box>
      <Box bg="bg" borderWidth="1px" borderRadius="md" p="4" mb="4">
        <Heading size="sm" mb="3">
          {t('campaignSettings.variables')}
        </Heading>
        <HStack mb="3" gap="2">
          <Input
            size="sm"
            maxW="48"
            placeholder={t('campaignSettings.shortcut')}
            aria-label={t('campaignSettings.shortcut')}
            value={key}
            onChange={(e) => setKey(e.target.value)}
            data-testid="campaign-settings-key"
          />
          <Input
            size="sm"
            placeholder={t('campaignSettings.content')}
            aria-label={t('campaignSettings.content')}
            value={value}
            onChange={(e) => setValue(e.target.value)}
            data-testid="campaign-settings-value"
          />
          <Button size="sm" variant="outline" onClick={add} disabled={!key.trim()} data-testid="campaign-settings-add">
            <MdAdd />
            {t('common.add')}
          </Button>
        </HStack>
        <Table.Root size="sm" data-testid="campaign-settings-variables">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>{t('campaignSettings.shortcut')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('campaignSettings.content')}</Table.ColumnHeader>
              <Table.ColumnHeader w="12" />
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {values.variables.map((v) => (
              <Table.Row key={v.key} data-testid="campaign-settings-variable">
                <Table.Cell fontWeight="medium">{`{${v.key}}`}</Table.Cell>
                <Table.Cell>{v.value}</Table.Cell>
                <Table.Cell>
                  <IconButton
                    size="xs"
                    variant="ghost"
                    colorPalette="red"
                    aria-label={t('common.delete')}
                    onClick={() => setValues((s) => ({ ...s, variables: s.variables.filter((x) => x.key !== v.key) }))}
                    data-testid="campaign-settings-variable-delete"
                  >
                    <MdDelete />
                  </IconButton>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </Box>
      <Box bg="bg" borderWidth="1px" borderRadius="md" p="4" mb="4">
        <Heading size="sm" mb="1">
          {t('campaignSettings.optOut')}
        </Heading>
        <Text textStyle="sm" color="fg.muted" mb="3">
          {t('campaignSettings.optOutHint')}
        </Text>
        <Input
          size="sm"
          placeholder={DEFAULT_OPT_OUT_KEYWORDS.join(', ')}
          aria-label={t('campaignSettings.optOut')}
          value={keywords}
          onChange={(e) => setKeywords(e.target.value)}
          data-testid="campaign-settings-opt-out"
        />
      </Box>
      <HStack justify="end">
        <Button colorPalette="teal" loading={saving.isLoading} onClick={() => void submit()} data-testid="campaign-settings-save">
          {t('common.save')}
        </Button>
      </HStack>
    </CampaignPageBox>
  );
}

export default withCampaignsGate(CampaignSettingsPage);
