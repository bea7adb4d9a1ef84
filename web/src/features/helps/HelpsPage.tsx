import { Box, Center, chakra, Heading, Image, SimpleGrid, Spinner, Text } from '@chakra-ui/react';
import type { HelpDto } from '@wa/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../app/errors';
import { useScrollPaging } from '../../app/list-page';
import { thumbnailUrlOf } from './help-rules';
import { HelpPlayer } from './HelpPlayer';
import { useListHelpsInfiniteQuery } from './helps.api';

/**
 * /helps (spec 02 "Helps"), for everyone signed in: the platform's help videos as a grid of cards (thumbnail,
 * title, description), 40 at a time, the next page loading within 100 px of the bottom (spec 02 §9); a card (a button: a click, Enter or Space) opens the
 * video's player, which Escape closes. Super users manage the videos in the Ajuda tab of /settings.
 */
export default function HelpsPage() {
  const { t } = useTranslation();
  const list = useListHelpsInfiniteQuery('');
  const helps = list.data?.pages.flatMap((p) => p.helps ?? []) ?? [];
  const paging = useScrollPaging(list, helps.length);
  const [playing, setPlaying] = useState<HelpDto | null>(null);

  return (
    <Box ref={paging.ref} p={{ base: '3', md: '6' }} h="full" overflowY="auto" onScroll={paging.onScroll} data-testid="helps-page">
      <Heading size="lg" mb="4" data-testid="helps-title">
        {t('helps.title')}
      </Heading>
      {helps.length > 0 && (
        <SimpleGrid columns={{ base: 1, sm: 2, lg: 3, '2xl': 4 }} gap="4" data-testid="helps-grid">
          {helps.map((h) => (
            <HelpCard key={h.id} help={h} onOpen={() => setPlaying(h)} />
          ))}
        </SimpleGrid>
      )}
      {(list.isLoading || list.isFetchingNextPage) && (
        <Center py="8">
          <Spinner />
        </Center>
      )}
      {list.isError && (
        <Center py="8" color="fg.error" data-testid="helps-error">
          {errorText(list.error)}
        </Center>
      )}
      {!list.isLoading && !list.isError && helps.length === 0 && (
        <Center py="12" color="fg.muted" data-testid="helps-empty">
          {t('helps.empty')}
        </Center>
      )}
      {playing && <HelpPlayer help={playing} onClose={() => setPlaying(null)} />}
    </Box>
  );
}

/** A video's card: a button, so the keyboard opens it as the mouse does. */
function HelpCard({ help, onOpen }: { help: HelpDto; onOpen(): void }) {
  const { t } = useTranslation();
  return (
    <chakra.button
      type="button"
      onClick={onOpen}
      aria-label={t('helps.watch', { title: help.title })}
      display="flex"
      flexDirection="column"
      textAlign="start"
      bg="bg"
      borderWidth="1px"
      borderRadius="md"
      overflow="hidden"
      cursor="pointer"
      transition="box-shadow 0.15s"
      _hover={{ shadow: 'md' }}
      focusVisibleRing="outside"
      data-testid={`help-card-${help.id}`}
    >
      <Image
        src={thumbnailUrlOf(help.video)}
        alt={help.title}
        w="full"
        aspectRatio={16 / 9}
        objectFit="cover"
        bg="bg.muted"
        loading="lazy"
        data-testid="help-card-thumbnail"
      />
      <chakra.span display="block" p="3">
        <Text as="span" display="block" fontWeight="semibold" lineClamp={2} data-testid="help-card-title">
          {help.title}
        </Text>
        {help.description && (
          <Text as="span" display="block" mt="1" textStyle="sm" color="fg.muted" lineClamp={3} data-testid="help-card-description">
            {help.description}
          </Text>
        )}
      </chakra.span>
    </chakra.button>
  );
}
