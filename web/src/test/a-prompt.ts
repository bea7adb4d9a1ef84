import type { PromptDto } from '@wa/contracts';

/** A prompt as the server answers it (its key masked), for the tests. */
export function aPrompt(id: number, name: string, extra: Partial<PromptDto> = {}): PromptDto {
  return {
    id,
    name,
    prompt: 'Você é um atendente simpático da loja. Responda em português, com frases curtas e claras.',
    voice: 'texto',
    voiceKey: null,
    voiceRegion: null,
    maxTokens: 100,
    temperature: 1,
    apiKey: '••••••••abcd',
    queueId: 5,
    queue: { id: 5, name: 'Vendas' },
    maxMessages: 10,
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
    ...extra,
  };
}
