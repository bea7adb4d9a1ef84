import { spawn } from 'node:child_process';
import { rm, stat } from 'node:fs/promises';
import { DomainError, type CheckedMedia, type UploadedDiskFile, invalidField } from '@wa/server-kit';

/** What WhatsApp plays as a voice note: OGG with one Opus stream. */
export const VOICE_NOTE_MIMETYPE = 'audio/ogg; codecs=opus';
/** The longest a transcoding may take before it is given up (a 16 MB audio takes a few seconds). */
export const VOICE_TRANSCODE_TIMEOUT_MS = 60_000;
/** The ffmpeg run (the system's, installed by scripts/lib/ffmpeg.mjs and in the images); FFMPEG_PATH may name another. */
const FFMPEG = process.env.FFMPEG_PATH || 'ffmpeg';

/** A voice note made from an uploaded audio: its file (removed by `discard`) and how it is sent. */
export interface VoiceNote {
  file: UploadedDiskFile;
  checked: CheckedMedia;
  discard(): Promise<void>;
}

/**
 * An uploaded audio (already checked by its bytes: `checked.mediaType` 'audio') as a WhatsApp voice note: transcoded
 * by ffmpeg to OGG/Opus, mono, 48 kHz, 32 kbit/s (voip), without its metadata, beside the upload (`<path>.ogg`).
 * A file that is not audio, or that ffmpeg cannot read, is refused with ERR_VALIDATION (field `field`); a transcoding
 * taking longer than VOICE_TRANSCODE_TIMEOUT_MS is stopped and refused the same way.
 */
export async function toVoiceNote(
  file: UploadedDiskFile,
  checked: CheckedMedia,
  field = 'medias',
  timeoutMs = VOICE_TRANSCODE_TIMEOUT_MS,
): Promise<VoiceNote> {
  if (checked.mediaType !== 'audio') throw invalidField(field, 'A voice note must be an audio file.');
  const out = `${file.path}.ogg`;
  const discard = () => rm(out, { force: true });
  try {
    await runFfmpeg(
      [
        ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', '-i', file.path],
        ...['-vn', '-map_metadata', '-1', '-ac', '1', '-ar', '48000'],
        ...['-c:a', 'libopus', '-b:a', '32k', '-application', 'voip', '-f', 'ogg', out],
      ],
      timeoutMs,
    );
    const size = (await stat(out)).size;
    if (size === 0) throw new Error('ffmpeg wrote nothing');
    const fileName = `${checked.fileName.replace(/\.[^.]*$/, '') || 'voice'}.ogg`;
    return {
      file: { path: out, originalname: fileName, mimetype: VOICE_NOTE_MIMETYPE, size },
      checked: { mediaType: 'audio', mimetype: VOICE_NOTE_MIMETYPE, fileName, size },
      discard,
    };
  } catch (err) {
    await discard();
    if (err instanceof DomainError) throw err;
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new Error('ffmpeg is not installed (scripts/lib/ffmpeg.mjs installs it)');
    throw invalidField(
      field,
      (err as Error).message === 'timeout' ? 'The audio took too long to convert.' : 'The audio could not be read.',
    );
  }
}

/** Runs ffmpeg to its end: rejects with its error text, with 'timeout' when it ran past `timeoutMs` (then killed). */
function runFfmpeg(args: string[], timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(FFMPEG, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 4000) stderr += chunk;
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('timeout'));
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(stderr.trim() || `ffmpeg exited with ${code}`));
    });
  });
}
