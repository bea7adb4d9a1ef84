/** spec 01 §9: recordings shorter than this many bytes are discarded. */
export const MIN_RECORDING_BYTES = 10_000;

/** spec 01 §9: recorded audio is MP3 at 128 kbps. */
export const RECORDING_KBPS = 128;

export interface Recording {
  /** stops and answers the MP3 */
  stop(): Promise<Blob>;
  /** stops and throws the recording away */
  cancel(): void;
}

/** Float samples (-1…1) as 16-bit PCM. */
export function toPcm16(samples: Float32Array): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const s = Math.max(-1, Math.min(1, samples[i]));
    out[i] = s < 0 ? s * 0x8000 : s * 0x7fff;
  }
  return out;
}

/** Whether a finished recording is kept (sent) or discarded as too short. */
export function keepRecording(mp3: Blob): boolean {
  return mp3.size >= MIN_RECORDING_BYTES;
}

/**
 * Records the microphone as MP3 (mono, 128 kbps) while it records: the samples are encoded as they
 * arrive (lamejs), so stopping answers at once and no raw audio piles up in memory.
 */
export async function startMp3Recording(): Promise<Recording> {
  const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
  let ctx: AudioContext | undefined;
  let encoder;
  try {
    ctx = new AudioContext();
    const { Mp3Encoder } = await import('@breezystack/lamejs');
    encoder = new Mp3Encoder(1, ctx.sampleRate, RECORDING_KBPS);
  } catch (err) {
    // the microphone is never left on when recording cannot start
    for (const track of stream.getTracks()) track.stop();
    void ctx?.close();
    throw err;
  }
  return record(stream, ctx, encoder);
}

function record(
  stream: MediaStream,
  ctx: AudioContext,
  encoder: { encodeBuffer(pcm: Int16Array): Uint8Array; flush(): Uint8Array },
): Recording {
  const source = ctx.createMediaStreamSource(stream);
  // ScriptProcessor keeps this self-contained (an AudioWorklet needs a module file served beside the app)
  const processor = ctx.createScriptProcessor(4096, 1, 1);
  const chunks: Uint8Array[] = [];
  processor.onaudioprocess = (e) => {
    const mp3 = encoder.encodeBuffer(toPcm16(e.inputBuffer.getChannelData(0)));
    if (mp3.length > 0) chunks.push(new Uint8Array(mp3));
  };
  source.connect(processor);
  processor.connect(ctx.destination);
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    processor.onaudioprocess = null;
    processor.disconnect();
    source.disconnect();
    for (const track of stream.getTracks()) track.stop();
    void ctx.close();
  };
  return {
    async stop() {
      close();
      const end = encoder.flush();
      if (end.length > 0) chunks.push(new Uint8Array(end));
      return new Blob(chunks as BlobPart[], { type: 'audio/mpeg' });
    },
    cancel: close,
  };
}
