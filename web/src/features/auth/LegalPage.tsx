import { Box, Center, Container, Heading, Link, List, Spinner, Text } from '@chakra-ui/react';
import { Fragment, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { loadLegalText, parseLegalText, type Inline, type LegalBlock, type LegalKind } from './legal-text';

function InlineText({ content }: { content: Inline[] }) {
  return (
    <>
      {content.map((part, i) =>
        part.href ? (
          <Link key={i} href={part.href} color="teal.fg" textDecoration="underline">
            {part.text}
          </Link>
        ) : part.bold ? (
          <Text as="strong" key={i}>
            {part.text}
          </Text>
        ) : (
          <Fragment key={i}>{part.text}</Fragment>
        ),
      )}
    </>
  );
}

function Block({ block }: { block: LegalBlock }) {
  if (block.kind === 'heading') {
    const size = block.level === 1 ? 'xl' : block.level === 2 ? 'md' : 'sm';
    return (
      <Heading as={`h${block.level}`} size={size} mt={block.level === 1 ? 0 : 6} mb="3">
        <InlineText content={block.content} />
      </Heading>
    );
  }
  if (block.kind === 'list') {
    return (
      <List.Root as={block.ordered ? 'ol' : 'ul'} ps="6" mb="3" gap="1">
        {block.items.map((item, i) => (
          <List.Item key={i}>
            <InlineText content={item} />
          </List.Item>
        ))}
      </List.Root>
    );
  }
  return (
    <Text mb="3">
      <InlineText content={block.content} />
    </Text>
  );
}

/**
 * /term and /privacy (the documents the login page links to): the operator's text in the reader's language,
 * read from web/public/legal (see its README); the title and a notice when the operator left no text.
 */
export default function LegalPage({ kind }: { kind: LegalKind }) {
  const { t, i18n } = useTranslation();
  const language = (i18n.resolvedLanguage ?? i18n.language ?? 'pt').slice(0, 2);
  const [text, setText] = useState<string | null | undefined>(undefined);

  useEffect(() => {
    let cancelled = false;
    setText(undefined);
    void loadLegalText(kind, language).then((body) => !cancelled && setText(body));
    return () => {
      cancelled = true;
    };
  }, [kind, language]);

  return (
    <Container maxW="3xl" py="10">
      <Box bg="bg" borderRadius="md" p="8" shadow="sm" data-testid="legal-page" data-kind={kind}>
        {text === undefined ? (
          <Center py="10">
            <Spinner color="teal.solid" />
          </Center>
        ) : text === null ? (
          <>
            <Heading size="xl" mb="4">
              {kind === 'term' ? t('legal.termTitle') : t('legal.privacyTitle')}
            </Heading>
            <Text color="fg.muted">{t('legal.body')}</Text>
          </>
        ) : (
          parseLegalText(text).map((block, i) => <Block key={i} block={block} />)
        )}
      </Box>
    </Container>
  );
}
