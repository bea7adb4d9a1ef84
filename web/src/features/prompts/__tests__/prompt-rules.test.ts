import { describe, expect, it } from '@jest/globals';
import {
  hasPromptErrors,
  isNeuralVoice,
  parseNumber,
  PROMPT_VOICES,
  promptFormOf,
  promptPayload,
  validatePromptForm,
} from '../prompt-rules';
import { aPrompt } from '../../../test/a-prompt';

const filled = (extra: Partial<ReturnType<typeof promptFormOf>> = {}) => ({
  ...promptFormOf(null),
  name: 'Atendente',
  prompt: 'x'.repeat(60),
  queueId: 5 as number | '',
  ...extra,
});

describe('prompt form (spec 02 §5, §9)', () => {
  it('a new prompt starts with the defaults: voice texto, 100 tokens, temperature 1, 10 messages, no queue', () => {
    expect(promptFormOf(null)).toEqual({
      name: '',
      prompt: '',
      queueId: '',
      voice: 'texto',
      voiceKey: '',
      voiceRegion: '',
      maxTokens: '100',
      temperature: '1',
      maxMessages: '10',
      apiKey: '',
    });
  });

  it('offers text and sixteen pt-BR neural voices', () => {
    expect(PROMPT_VOICES[0]).toBe('texto');
    expect(PROMPT_VOICES).toHaveLength(17);
    expect(PROMPT_VOICES.slice(1).every((v) => /^pt-BR-\w+Neural$/.test(v))).toBe(true);
    expect(new Set(PROMPT_VOICES).size).toBe(17);
    expect(isNeuralVoice('texto')).toBe(false);
    expect(isNeuralVoice('pt-BR-FranciscaNeural')).toBe(true);
  });

  it("a queue must be chosen ('Informe o setor'); name and prompt lengths are left to the server", () => {
    expect(validatePromptForm(filled({ queueId: '' }))).toEqual({ queueId: 'queueRequired' });
    expect(validatePromptForm(filled({ name: '', prompt: 'curto' }))).toEqual({});
    expect(hasPromptErrors(validatePromptForm(filled()))).toBe(false);
  });

  it('the numbers are checked against the bounds the server keeps', () => {
    expect(validatePromptForm(filled({ maxTokens: '0', temperature: '2.5', maxMessages: '51' }))).toEqual({
      maxTokens: 'integer',
      temperature: 'number',
      maxMessages: 'integer',
    });
    expect(validatePromptForm(filled({ maxTokens: '1.5', temperature: 'quente', maxMessages: '' }))).toEqual({
      maxTokens: 'integer',
      temperature: 'number',
      maxMessages: 'integer',
    });
    expect(validatePromptForm(filled({ maxTokens: '4096', temperature: '0', maxMessages: '1' }))).toEqual({});
    expect(validatePromptForm(filled({ temperature: '0,7' }))).toEqual({});
    expect(parseNumber(' 0,7 ')).toBe(0.7);
    expect(parseNumber('')).toBeNaN();
  });

  it('edits a saved prompt as the server has it, its key masked, and sends the key back as shown', () => {
    const saved = aPrompt(3, 'Atendente', {
      voice: 'pt-BR-AntonioNeural',
      voiceKey: 'vk',
      voiceRegion: 'brazilsouth',
      maxTokens: 300,
      temperature: 0.4,
      maxMessages: 5,
    });
    const form = promptFormOf(saved);
    expect(form).toEqual({
      name: 'Atendente',
      prompt: saved.prompt,
      queueId: 5,
      voice: 'pt-BR-AntonioNeural',
      voiceKey: 'vk',
      voiceRegion: 'brazilsouth',
      maxTokens: '300',
      temperature: '0.4',
      maxMessages: '5',
      apiKey: '••••••••abcd',
    });
    expect(promptPayload({ ...form, name: '  Atendente 2 ' })).toEqual({
      name: 'Atendente 2',
      prompt: saved.prompt,
      queueId: 5,
      voice: 'pt-BR-AntonioNeural',
      voiceKey: 'vk',
      voiceRegion: 'brazilsouth',
      maxTokens: 300,
      temperature: 0.4,
      maxMessages: 5,
      apiKey: '••••••••abcd',
    });
    expect(promptFormOf(aPrompt(3, 'A', { voiceKey: null, voice: '' })).voice).toBe('texto');
  });

  it('a new key is sent trimmed; the numbers as numbers', () => {
    const body = promptPayload(filled({ apiKey: ' sk-test-123 ', temperature: '0,5' }));
    expect(body).toMatchObject({ apiKey: 'sk-test-123', temperature: 0.5, maxTokens: 100, maxMessages: 10, queueId: 5, voice: 'texto' });
  });
});
