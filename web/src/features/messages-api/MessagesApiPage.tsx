import { Box, Heading, SimpleGrid, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { apiUrl } from '../../app/config';
import { PlanGate } from '../../app/PermissionGate';
import { ApiDocs } from './ApiDocs';
import { ApiTestForm } from './ApiTestForm';

/**
 * /messages-api (spec 02 §2 "External messages API page", §6): the public messages API's documentation and
 * a test form (a text, or files), for companies whose plan has useExternalApi; others get the permission
 * notice and go to / after 1 s.
 */
export default function MessagesApiPage() {
  return (
    <PlanGate flag="useExternalApi">
      <MessagesApi />
    </PlanGate>
  );
}

function MessagesApi() {
  const { t } = useTranslation();
  // the API host the app itself calls: the public API is served there too
  const baseUrl = apiUrl();
  return (
    <Box p={{ base: '3', md: '6' }} maxW="6xl" data-testid="messages-api-page">
      <Heading size="lg">{t('messagesApi.title')}</Heading>
      <Text color="fg.muted" mt="1" mb="4" textStyle="sm">
        {t('messagesApi.intro')}
      </Text>
      <Box bg="bg" borderWidth="1px" borderRadius="md" p={{ base: '4', md: '6' }} mb="6">
        <Heading as="h2" size="md" mb="4">
          {t('messagesApi.docs.title')}
        </Heading>
        <ApiDocs baseUrl={baseUrl} />
      </Box>
      <Box bg="bg" borderWidth="1px" borderRadius="md" p={{ base: '4', md: '6' }} data-testid="messages-api-test">
        <Heading as="h2" size="md">
          {t('messagesApi.test.title')}
        </Heading>
        <Text color="fg.muted" textStyle="sm" mt="1" mb="4">
          {t('messagesApi.test.hint')}
        </Text>
        <SimpleGrid columns={{ base: 1, xl: 2 }} gap="6" alignItems="start">
          <ApiTestForm kind="text" baseUrl={baseUrl} />
          <ApiTestForm kind="media" baseUrl={baseUrl} />
        </SimpleGrid>
      </Box>
    </Box>
  );
}
