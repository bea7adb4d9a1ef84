import { Box, Center, Spinner, type SystemStyleObject } from '@chakra-ui/react';
import { MessageOptions } from './MessageOptions';
import type { MessageDto } from '@wa/contracts';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../app/errors';
import { useConversationScroll } from '../../app/use-conversation-scroll';
import { AckIcon } from './AckIcon';
import { useMessagesInfiniteQuery, usePreviewMessagesInfiniteQuery } from './chat.api';
import { FormattedText } from './FormattedText';
import { FILE_TYPES, MediaView, mediaFileName } from './MediaView';
import { ContactCards, LocationCard, ReactionBadge, ReactionPicker } from './MessageContents';
import { dayLabel, orderedMessages, timeLabel, type MessagePages } from './message-rules';
import { isWaitingMessage, WaitingMessage } from '../../components/WaitingMessage';

/** spec 01 §2 and §9: older messages load within 50 px of the top. */
export const LIST_TOP_PX = 50;

/** Bubbles and separators are plain elements styled once here: a chat holds many of them. */
const messagesCss: SystemStyleObject = {
  '& .line': { display: 'flex', justifyContent: 'flex-start', px: '4', py: '0.5' },
  '& .line[data-from-me=true]': { justifyContent: 'flex-end' },
  '& .bubble': { maxW: '70%', bg: 'chat.theirs', borderRadius: 'lg', borderTopLeftRadius: 'sm', px: '3', py: '1.5', shadow: 'xs' },
  '& [data-from-me=true] .bubble': { bg: 'chat.mine', borderTopLeftRadius: 'lg', borderTopRightRadius: 'sm' },
  '& .text': { textStyle: 'sm', whiteSpace: 'pre-wrap', wordBreak: 'break-word' },
  '& .meta': {
    display: 'flex',
    justifyContent: 'flex-end',
    alignItems: 'center',
    gap: '1',
    mt: '0.5',
    textStyle: '2xs',
    color: 'chat.meta',
  },
  '& .day': { display: 'flex', justifyContent: 'center', py: '2' },
  '& .day span': { textStyle: 'xs', bg: 'bg', color: 'fg.muted', px: '3', py: '0.5', borderRadius: 'full', shadow: 'xs' },
  '& .media-image': { display: 'block', maxW: '280px', maxH: '280px', borderRadius: 'md', mb: '1', objectFit: 'cover' },
  '& .media-video': { display: 'block', maxW: '320px', borderRadius: 'md', mb: '1' },
  '& .media-audio': { display: 'block', maxW: '280px', mb: '1' },
  '& .quoted': {
    borderLeftWidth: '4px',
    borderLeftColor: 'teal.solid',
    bg: 'blackAlpha.100',
    borderRadius: 'sm',
    px: '2',
    py: '1',
    mb: '1',
    textStyle: 'xs',
    cursor: 'default',
  },
  '& .quoted .who': { fontWeight: 'semibold', color: 'teal.fg' },
  '& .quoted .what': { lineClamp: 3, whiteSpace: 'pre-wrap', wordBreak: 'break-word' },
  '& .line .options': { visibility: 'hidden', alignSelf: 'flex-start', mx: '1' },
  '& .line:hover .options, & .line:focus-within .options, & .line .options[data-state=open]': { visibility: 'visible' },
  '& .deleted': { color: 'chat.meta', fontStyle: 'italic' },
  '& .deleted s': { display: 'block', fontStyle: 'normal' },
};

/** What a quoted message shows: its text, or its file's name. */
export function quotedText(m: MessageDto): string {
  if (m.body) return m.body;
  return m.mediaUrl ? mediaFileName(m.mediaUrl) : '';
}

function Quoted({ message, quoted, contactName }: { message: MessageDto; quoted: MessageDto | undefined; contactName: string }) {
  const { t } = useTranslation();
  if (!message.quotedMsgId) return null;
  return (
    <div className="quoted" data-testid="message-quoted" data-quoted-id={message.quotedMsgId}>
      <div className="who">{quoted ? (quoted.fromMe ? t('chat.you') : (quoted.contact?.name ?? contactName)) : ''}</div>
      <div className="what">{quoted ? quotedText(quoted) : '…'}</div>
    </div>
  );
}

function Bubble({
  message,
  quoted,
  contactName,
  onReply,
}: {
  message: MessageDto;
  quoted: MessageDto | undefined;
  contactName: string;
  onReply?: (m: MessageDto) => void;
}) {
  const { t } = useTranslation();
  const mine = message.fromMe;
  const hasFile = FILE_TYPES.has(message.mediaType);
  // a place or contact cards show as such (their body, "lat,long" or the vCard, is for older clients)
  const card = !message.isDeleted && (message.location ?? (message.contacts?.length ? message.contacts : null));
  const replyButton = (
    <>
      <ReactionPicker message={message} enabled={Boolean(onReply)} />
      <MessageOptions message={message} onReply={onReply} />
    </>
  );
  return (
    <div className="line" data-from-me={mine}>
      {mine && replyButton}
      <div className="bubble" data-testid="message" data-message-id={message.id} data-from-me={mine} data-media-type={message.mediaType}>
        <Quoted message={message} quoted={quoted} contactName={contactName} />
        {hasFile && !message.isDeleted && <MediaView message={message} />}
        {message.location && !message.isDeleted && <LocationCard location={message.location} />}
        {message.contacts?.length && !message.isDeleted ? <ContactCards contacts={message.contacts} /> : null}
        {!card &&
          (!hasFile ||
            message.isDeleted ||
            (message.body &&
              !(message.mediaType === 'application' && message.mediaUrl && message.body === mediaFileName(message.mediaUrl)))) && (
            <div className="text" data-testid="message-body">
              {message.isDeleted ? (
                <span className="deleted" data-testid="message-deleted">
                  🚫 {t('chat.deleted')}
                  <s>{message.body}</s>
                </span>
              ) : isWaitingMessage(message) ? (
                <WaitingMessage />
              ) : (
                <FormattedText text={message.body} />
              )}
            </div>
          )}
        <div className="meta">
          {message.isEdited && !message.isDeleted && <span data-testid="message-edited">{t('chat.edited')}</span>}
          <span>{timeLabel(message.createdAt)}</span>
          {mine && <AckIcon ack={message.ack} failedReason={message.failedReason} />}
        </div>
        {message.reactions?.length ? <ReactionBadge reactions={message.reactions} /> : null}
      </div>
      {!mine && replyButton}
    </div>
  );
}

/** The messages of a ticket, newest at the bottom, with a separator per day (DD/MM/YYYY). */
export function MessagesList({
  ticketId,
  contactName = '',
  onReply,
  preview = false,
}: {
  ticketId: number;
  contactName?: string;
  onReply?: (m: MessageDto) => void;
  preview?: boolean;
}) {
  const { t } = useTranslation();
  const chat = useMessagesInfiniteQuery(ticketId, { skip: preview });
  const peek = usePreviewMessagesInfiniteQuery(ticketId, { skip: !preview });
  const query = preview ? peek : chat;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const messages = orderedMessages(query.data as MessagePages | undefined);
  const byId = new Map(messages.map((m) => [m.id, m]));
  const { scroller, onScroll } = useConversationScroll({
    topPx: LIST_TOP_PX,
    hasNextPage,
    isFetchingNextPage,
    fetchNextPage,
    firstId: messages[0]?.id,
    lastId: messages[messages.length - 1]?.id,
    lastIsMine: !!messages[messages.length - 1]?.fromMe,
  });

  let previousDay = '';
  return (
    <Box
      ref={scroller}
      flex="1"
      minH="0"
      overflowY="auto"
      bg="chat.bg"
      py="3"
      css={messagesCss}
      onScroll={onScroll}
      data-testid="messages-list"
      data-ready={!query.isLoading}
    >
      {isFetchingNextPage && (
        <Center py="2" gap="2" color="fg.muted" textStyle="xs">
          <Spinner size="xs" />
          {t('chat.loadingOlder')}
        </Center>
      )}
      {query.isLoading && (
        <Center h="full">
          <Spinner color="teal.solid" />
        </Center>
      )}
      {query.isError && messages.length === 0 && (
        <Center h="full" color="fg.error" textStyle="sm">
          {errorText(query.error)}
        </Center>
      )}
      {!query.isLoading && !query.isError && messages.length === 0 && (
        <Center h="full" color="fg.muted" textStyle="sm">
          {t('chat.noMessages')}
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
                <span data-testid="day-separator">{day}</span>
              </div>
            )}
            <Bubble
              message={m}
              // the page's copy (edits arrive live), else the one the server sent with the message (a quote of an older page)
              quoted={(m.quotedMsgId ? byId.get(m.quotedMsgId) : undefined) ?? m.quotedMsg ?? undefined}
              contactName={contactName}
              onReply={onReply}
            />
          </Fragment>
        );
      })}
    </Box>
  );
}
