import { Box, Container, Heading, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';

/** /term and /privacy: the documents the login page links to. */
export default function LegalPage({ kind }: { kind: 'term' | 'privacy' }) {
  const { t } = useTranslation();
  return (
    <Container maxW="3xl" py="10">
      <Box bg="bg" borderRadius="md" p="8" shadow="sm">
        <Heading size="xl" mb="4">
          {kind === 'term' ? t('legal.termTitle') : t('legal.privacyTitle')}
        </Heading>
        <Text color="fg.muted">{t('legal.body')}</Text>
      </Box>
    </Container>
  );
}
