import { useCallback, useLayoutEffect, useRef } from 'react';
import { isNearEnd, isNearTop, keptScrollTop } from './scroll';

/** closer than this to the bottom, a new message keeps the view at the bottom */
const STICK_TO_BOTTOM_PX = 120;

/**
 * The scrolling of a conversation (a ticket's messages, an internal chat): older messages are asked for when the
 * view is within `topPx` of the top, and put above without moving what is shown; a new message at the bottom (or
 * the first load) is followed when the view was at the bottom or the message is the user's own.
 */
export function useConversationScroll({
  topPx,
  hasNextPage,
  isFetchingNextPage,
  fetchNextPage,
  firstId,
  lastId,
  lastIsMine,
}: {
  topPx: number;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage(): Promise<unknown>;
  firstId: number | string | undefined;
  lastId: number | string | undefined;
  lastIsMine: boolean;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  /** the scroll height before older messages were put on top, to keep the view where it was */
  const anchor = useRef<{ height: number; top: number } | null>(null);
  const atBottom = useRef(true);
  const mine = useRef(lastIsMine);
  mine.current = lastIsMine;

  const onScroll = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    atBottom.current = isNearEnd(el, STICK_TO_BOTTOM_PX);
    if (anchor.current || !hasNextPage || isFetchingNextPage || !isNearTop(el, topPx)) return;
    anchor.current = { height: el.scrollHeight, top: el.scrollTop };
    void fetchNextPage().finally(() => {
      // nothing came (an error): forget the anchor so the next scroll can try again
      requestAnimationFrame(() => {
        if (anchor.current && scroller.current?.scrollHeight === anchor.current.height) anchor.current = null;
      });
    });
  }, [topPx, hasNextPage, isFetchingNextPage, fetchNextPage]);

  // older messages on top: the view stays on the message it showed
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el || !anchor.current) return;
    el.scrollTop = keptScrollTop(anchor.current, el.scrollHeight);
    anchor.current = null;
  }, [firstId]);

  // a new message at the bottom (or the first load): followed when the user was at the bottom or sent it
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el || lastId === undefined) return;
    if (atBottom.current || mine.current) {
      el.scrollTop = el.scrollHeight;
      atBottom.current = true;
    }
  }, [lastId]);

  return { scroller, onScroll };
}
