import { Box, Button, Flex, Heading, SimpleGrid, Text } from '@chakra-ui/react';
import type { CampaignStatus } from '@wa/contracts';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { MdArrowBack, MdFileDownload } from 'react-icons/md';
import { useNavigate, useParams } from 'react-router-dom';
import { errorText } from '../../app/errors';
import { REPORT_RELOAD_MS, reportProgress } from './campaign-rules';
import { downloadFile, useCampaignReportQuery, useGetCampaignQuery } from './campaigns.api';
import { CampaignPageBox, withCampaignsGate } from './CampaignsGate';
import { campaignNotify, CampaignStatusText, dateTimeText, ProgressBar, StatCard } from './ui';

/**
 * /campaign/:campaignId/report (spec 02 §2): the status with delivered of valid, the progress bar and the cards,
 * live (company-<id>-campaign patches the campaign and its report); a live turn to FINALIZADA reloads the
 * report after 5 s. Export: the rows as CSV.
 */
function CampaignReportPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const id = Number(useParams().campaignId);
  const campaign = useGetCampaignQuery(id);
  const report = useCampaignReportQuery(id);
  const c = campaign.data;
  const r = report.data;
  const { refetch } = report;
  const lastStatus = useRef<CampaignStatus | undefined>(undefined);

  useEffect(() => {
    const before = lastStatus.current;
    lastStatus.current = c?.status;
    if (!before || before === 'FINALIZADA' || c?.status !== 'FINALIZADA') return;
    const timer = setTimeout(() => void refetch(), REPORT_RELOAD_MS);
    return () => clearTimeout(timer);
  }, [c?.status, refetch]);

  const exportCsv = () =>
    downloadFile(`/campaigns/${id}/report/export`, `campanha-${id}.csv`).catch((err: unknown) => campaignNotify.error(err));
  const count = (n: number | undefined) => (n ?? 0).toLocaleString(i18n.language);
  const error = campaign.error ?? report.error;

  return (
    <CampaignPageBox data-testid="campaign-report-page" overflowY="auto">
      <Flex gap="3" mb="4" align="center" wrap="wrap">
        <Heading size="lg" flex="1" data-testid="campaign-report-title">
          {t('campaignReport.title', { name: c?.name ?? '' })}
        </Heading>
        <Button size="sm" variant="outline" onClick={() => navigate('/campaigns')}>
          <MdArrowBack />
          {t('campaignReport.back')}
        </Button>
        <Button size="sm" variant="outline" onClick={() => void exportCsv()} data-testid="campaign-report-export">
          <MdFileDownload />
          {t('campaignReport.export')}
        </Button>
      </Flex>
      {error && (
        <Text color="fg.error" mb="4">
          {errorText(error)}
        </Text>
      )}
      {c && (
        <Box bg="bg" borderWidth="1px" borderRadius="md" p="4" mb="4">
          <Flex justify="space-between" align="start" mb="2" gap="3">
            <Box>
              <CampaignStatusText campaign={c} />
            </Box>
            <Text data-testid="campaign-report-delivered-of-valid">
              {t('campaignReport.deliveredOfValid', { delivered: count(r?.delivered), valid: count(r?.valid) })}
            </Text>
          </Flex>
          <ProgressBar value={reportProgress(r)} testId="campaign-report-progress" />
        </Box>
      )}
      <SimpleGrid columns={{ base: 1, sm: 2, lg: 4 }} gap="3">
        <StatCard label={t('campaignReport.valid')} value={count(r?.valid)} testId="campaign-report-valid" />
        {c?.confirmation && (
          <>
            <StatCard
              label={t('campaignReport.confirmationRequested')}
              value={count(r?.confirmationRequested)}
              testId="campaign-report-confirmation-requested"
            />
            <StatCard label={t('campaignReport.confirmed')} value={count(r?.confirmed)} testId="campaign-report-confirmed" />
          </>
        )}
        <StatCard label={t('campaignReport.delivered')} value={count(r?.delivered)} testId="campaign-report-delivered" />
        <StatCard label={t('campaignReport.sent')} value={count(r?.sent)} testId="campaign-report-sent" />
        <StatCard label={t('campaignReport.failed')} value={count(r?.failed)} testId="campaign-report-failed" />
        <StatCard label={t('campaignReport.pending')} value={count(r?.pending)} testId="campaign-report-pending" />
        <StatCard label={t('campaignReport.invalid')} value={count(r?.invalid)} testId="campaign-report-invalid" />
        <StatCard label={t('campaignReport.optedOut')} value={count(r?.optedOut)} testId="campaign-report-opted-out" />
        <StatCard label={t('campaignReport.connection')} value={c?.whatsapp?.name ?? '-'} testId="campaign-report-connection" />
        <StatCard label={t('campaignReport.contactList')} value={c?.contactList?.name ?? '-'} testId="campaign-report-contact-list" />
        <StatCard
          label={t('campaignReport.scheduledAt')}
          value={dateTimeText(c?.scheduledAt, i18n.language) || '-'}
          testId="campaign-report-scheduled"
        />
        <StatCard
          label={t('campaignReport.completedAt')}
          value={dateTimeText(c?.completedAt, i18n.language) || '-'}
          testId="campaign-report-completed"
        />
      </SimpleGrid>
    </CampaignPageBox>
  );
}

export default withCampaignsGate(CampaignReportPage);
