import { SocketChannels, type AppMessageChannelPayload, type ChatPresence, type PresenceSocketEvent } from '@wa/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { selectUser } from '../../app/session';
import { useAppSelector } from '../../app/store';
import { useSocketEvent } from '../../realtime/RealtimeProvider';
import { useSendPresenceMutation } from './chat.api';

/** A customer's "digitando…" is shown this long after WhatsApp last told it (it tells it again while they go on). */
export const CUSTOMER_PRESENCE_SHOWN_MS = 10_000;
/** The agent's typing is told again at most this often while they go on typing. */
export const AGENT_PRESENCE_EVERY_MS = 3_000;
/** The agent stopped typing this long ago: the customer is told they stopped. */
export const AGENT_IDLE_MS = 5_000;

/**
 * What the ticket's customer is doing now, as WhatsApp tells it (`company-<id>-presence`, to the chat box's room):
 * typing or recording, for CUSTOMER_PRESENCE_SHOWN_MS at most; null once they stop, or their message arrives.
 */
export function useCustomerPresence(ticketId: number): Exclude<ChatPresence, 'paused'> | null {
  const user = useAppSelector(selectUser);
  const [presence, setPresence] = useState<Exclude<ChatPresence, 'paused'> | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const clear = useCallback(() => {
    clearTimeout(timer.current);
    setPresence(null);
  }, []);
  useEffect(() => clear, [ticketId, clear]);
  useSocketEvent<PresenceSocketEvent>(user ? SocketChannels.presence(user.companyId) : null, (p) => {
    if (p.ticketId !== ticketId) return;
    if (p.state === 'paused') return clear();
    clearTimeout(timer.current);
    setPresence(p.state);
    timer.current = setTimeout(() => setPresence(null), CUSTOMER_PRESENCE_SHOWN_MS);
  });
  // their message is what they were typing
  useSocketEvent<AppMessageChannelPayload>(user ? SocketChannels.appMessage(user.companyId) : null, (p) => {
    if (p.action === 'create' && p.message.ticketId === ticketId && !p.message.fromMe) clear();
  });
  return presence;
}

/**
 * Tells the customer what the agent is doing in the composer: `typing()` on each keystroke (told at most every
 * AGENT_PRESENCE_EVERY_MS), `recording()` when a voice note starts, `stopped()` when the text is sent, emptied or
 * the recording ends; AGENT_IDLE_MS without a keystroke counts as stopped. Nothing is told while `enabled` is false.
 */
export function useAgentPresence(ticketId: number, enabled: boolean): { typing(): void; recording(): void; stopped(): void } {
  const [tell] = useSendPresenceMutation();
  const last = useRef<{ state: ChatPresence; at: number } | null>(null);
  const idle = useRef<ReturnType<typeof setTimeout>>(undefined);
  const say = useCallback(
    (state: ChatPresence) => {
      last.current = { state, at: Date.now() };
      // a presence is worth a few seconds: one that fails is not tried again
      void tell({ ticketId, state })
        .unwrap()
        .catch(() => undefined);
    },
    [tell, ticketId],
  );
  const stopped = useCallback(() => {
    clearTimeout(idle.current);
    if (last.current && last.current.state !== 'paused') say('paused');
  }, [say]);
  const typing = useCallback(() => {
    if (!enabled) return;
    const l = last.current;
    if (!l || l.state !== 'composing' || Date.now() - l.at >= AGENT_PRESENCE_EVERY_MS) say('composing');
    clearTimeout(idle.current);
    idle.current = setTimeout(stopped, AGENT_IDLE_MS);
  }, [enabled, say, stopped]);
  const recording = useCallback(() => {
    if (!enabled) return;
    clearTimeout(idle.current);
    say('recording');
  }, [enabled, say]);
  // another ticket, or the chat closed: the customer is not left seeing "digitando…"
  useEffect(
    () => () => {
      clearTimeout(idle.current);
      if (last.current && last.current.state !== 'paused')
        void tell({ ticketId, state: 'paused' })
          .unwrap()
          .catch(() => undefined);
      last.current = null;
    },
    [ticketId, tell],
  );
  return { typing, recording, stopped };
}
