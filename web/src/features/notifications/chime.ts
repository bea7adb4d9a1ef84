import { CHIME_NOTES, chimeGain, chimeLength } from './notification-rules';

type AudioContextCtor = typeof AudioContext;

let context: AudioContext | null = null;

function audioContext(): AudioContext | null {
  if (typeof window === 'undefined') return null;
  const Ctor: AudioContextCtor | undefined =
    window.AudioContext ?? (window as unknown as { webkitAudioContext?: AudioContextCtor }).webkitAudioContext;
  if (!Ctor) return null;
  try {
    context ??= new Ctor();
  } catch {
    return null;
  }
  return context;
}

/** Browsers start audio only after a user gesture: called on the first click or key of the page. */
export function unlockAudio(): void {
  const c = audioContext();
  if (c?.state === 'suspended') void c.resume().catch(() => undefined);
}

/** Tells whoever listens (a browser test) that the chime is due, and at what gain (sent even where audio cannot play). */
export const CHIME_EVENT = 'conversa:chime';

/** Whether the page has had a user gesture (before one, browsers refuse to start audio, and warn). */
function hadUserGesture(): boolean {
  const activation = (navigator as Navigator & { userActivation?: { hasBeenActive: boolean } }).userActivation;
  return activation ? activation.hasBeenActive : true;
}

/**
 * The new-message sound: two short sine tones through a GainNode at the slider's volume (spec 01 §9);
 * volume 0 plays nothing.
 */
export function playChime(volume: number): void {
  const gain = chimeGain(volume);
  if (gain <= 0) return;
  window.dispatchEvent(new CustomEvent(CHIME_EVENT, { detail: { gain } }));
  if (!context && !hadUserGesture()) return;
  const c = audioContext();
  if (!c) return;
  if (c.state === 'suspended') void c.resume().catch(() => undefined);
  try {
    const master = c.createGain();
    master.gain.value = gain;
    master.connect(c.destination);
    const t0 = c.currentTime + 0.02;
    for (const note of CHIME_NOTES) {
      const osc = c.createOscillator();
      osc.type = 'sine';
      osc.frequency.value = note.frequency;
      const envelope = c.createGain();
      const start = t0 + note.start;
      envelope.gain.setValueAtTime(0.0001, start);
      envelope.gain.exponentialRampToValueAtTime(1, start + 0.015);
      envelope.gain.exponentialRampToValueAtTime(0.0001, start + note.duration);
      osc.connect(envelope).connect(master);
      osc.start(start);
      osc.stop(start + note.duration + 0.02);
    }
    setTimeout(() => master.disconnect(), (chimeLength() + 0.2) * 1000);
  } catch {
    // audio is a nicety: a browser that refuses it stays silent
  }
}
