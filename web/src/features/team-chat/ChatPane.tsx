import { Box, Center, Flex, IconButton, Spinner, Text, Textarea, type SystemStyleObject } from '@chakra-ui/react';
import type { ChatDto, ChatMessageDto } from '@wa/contracts';
import { Fragment, useEffect, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { MdSend } from 'react-icons/md';
import { useConversationScroll } from '../../app/use-conversation-scroll';
import { dayLabel, timeLabel } from '../ticket-chat/message-rules';
import { chatMessageBody, isSendKey, memberNames, OLDER_MESSAGES_TOP_PX, orderedChatMessages, type ChatMessagePages } from './chat-rules';
import { logChatFailure, useChatMessagesInfiniteQuery, useSendChatMessageMutation } from './chats.api';

/** Bubbles are plain elements styled once here: a chat holds many of them. */
const messagesCss: SystemStyleObject = {
  '& .line': { display: 'flex', justifyContent: 'flex-start', px: '4', py: '0.5' },
  '& .line[data-mine=true]': { justifyContent: 'flex-end' },
  '& .bubble': { maxW: '75%', bg: 'chat.theirs', borderRadius: 'lg', borderTopLeftRadius: 'sm', px: '3', py: '1.5', shadow: 'xs' },
  '& [data-mine=true] .bubble': { bg: 'chat.mine', borderTopLeftRadius: 'lg', borderTopRightRadius: 'sm' },
  '& .sender': { textStyle: 'xs', fontWeight: 'semibold', color: 'teal.fg' },
  '& .text': { textStyle: 'sm', whiteSpace: 'pre-wrap', wordBreak: 'break-word' },
  '& .meta': { display: 'flex', justifyContent: 'flex-end', mt: '0.5', textStyle: '2xs', color: 'chat.meta' },
  '& .day': { display: 'flex', justifyContent: 'center', py: '2' },
  '& .day span': { textStyle: 'xs', bg: 'bg', color: 'fg.muted', px: '3', py: '0.5', borderRadius: 'full', shadow: 'xs' },
};

function Bubble({ message, mine }: { message: ChatMessageDto; mine: boolean }) {
  return (
    <div className="line" data-mine={mine}>
      <div className="bubble" data-testid="chat-message" data-message-id={message.id} data-mine={mine}>
        {!mine && (
          <div className="sender" data-testid="chat-message-sender">
            {message.sender?.name}
          </div>
        )}
        <div className="text" data-testid="chat-message-text">
          {message.message}
        </div>
        <div className="meta">{timeLabel(message.createdAt)}</div>
      </div>
    </div>
  );
}

/**
 * The open chat (spec 02 "Internal chat"): its title and members, its messages (the newest 30 first; older
 * ones load when scrolled under 600 px from the top, spec 02 §9) and the input: Enter sends, empty or
 * whitespace-only text is not sent (spec 02 §5). Failed requests are only logged (spec 02 §8).
 */
export function ChatPane({ chat, userId }: { chat: ChatDto; userId: number }) {
  const { t } = useTranslation();
  const query = useChatMessagesInfiniteQuery(chat.id);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const messages = orderedChatMessages(query.data as ChatMessagePages | undefined);
  const [send] = useSendChatMessageMutation();
  const [text, setText] = useState('');
  const names = memberNames(chat, userId).join(', ');
  const { scroller, onScroll } = useConversationScroll({
    topPx: OLDER_MESSAGES_TOP_PX,
    hasNextPage,
    isFetchingNextPage,
    fetchNextPage,
    firstId: messages[0]?.id,
    lastId: messages[messages.length - 1]?.id,
    lastIsMine: messages[messages.length - 1]?.senderId === userId,
  });

  useEffect(() => {
    if (query.isError) logChatFailure(`loading the messages of chat ${chat.id} failed`, query.error);
  }, [query.isError, query.error, chat.id]);

  async function submit() {
    const body = chatMessageBody(text);
    if (!body) return;
    setText('');
    try {
      await send({ chat, message: body.message }).unwrap();
    } catch (err) {
      // not shown (spec 02 §8): the text comes back to the input, unless something else was typed meanwhile
      setText((now) => (now ? now : text));
      logChatFailure(`sending to chat ${chat.id} failed`, err);
    }
  }

  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (!isSendKey({ key: e.key, shiftKey: e.shiftKey, isComposing: e.nativeEvent.isComposing })) return;
    e.preventDefault();
    void submit();
  }

  let previousDay = '';
  return (
    <Flex direction="column" h="full" minH="0" data-testid="chat-pane" data-chat-id={chat.id}>
      <Box px="4" py="2" borderBottomWidth="1px" bg="bg">
        <Text fontWeight="semibold" truncate data-testid="chat-pane-title">
          {chat.title}
        </Text>
        {names && (
          <Text textStyle="xs" color="fg.muted" truncate data-testid="chat-pane-members">
            {names}
          </Text>
        )}
      </Box>
      <Box
        ref={scroller}
        flex="1"
        minH="0"
        overflowY="auto"
        bg="chat.bg"
        py="3"
        css={messagesCss}
        onScroll={onScroll}
        data-testid="chat-messages"
        data-ready={!query.isLoading}
      >
        {isFetchingNextPage && (
          <Center py="2" gap="2" color="fg.muted" textStyle="xs" data-testid="chat-loading-older">
            <Spinner size="xs" />
            {t('chats.loadingOlder')}
          </Center>
        )}
        {query.isLoading && (
          <Center h="full">
            <Spinner color="teal.solid" />
          </Center>
        )}
        {!query.isLoading && messages.length === 0 && (
          <Center h="full" color="fg.muted" textStyle="sm" data-testid="chat-no-messages">
            {t('chats.noMessages')}
          </Center>
        )}
        {messages.map((m) => {
          const day = dayLabel(m.createdAt);
          const separator = day !== previousDay;
          previousDay = day;
          return (
            <Fragment key={m.id}>
              {separator && (
                <div className="day">
                  <span>{day}</span>
                </div>
              )}
              <Bubble message={m} mine={m.senderId === userId} />
            </Fragment>
          );
        })}
      </Box>
      <Flex
        as="form"
        gap="2"
        p="2"
        borderTopWidth="1px"
        bg="bg"
        align="flex-end"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Textarea
          flex="1"
          rows={1}
          autoresize
          maxH="calc(5lh + 1rem + 2px)"
          resize="none"
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          placeholder={t('chats.placeholder')}
          aria-label={t('chats.placeholder')}
          data-testid="chat-message-input"
        />
        <IconButton
          type="submit"
          colorPalette="teal"
          aria-label={t('chats.send')}
          title={t('chats.send')}
          disabled={!chatMessageBody(text)}
          data-testid="chat-send"
        >
          <MdSend />
        </IconButton>
      </Flex>
    </Flex>
  );
}
