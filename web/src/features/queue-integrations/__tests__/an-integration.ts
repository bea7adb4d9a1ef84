import type { QueueIntegrationDto } from '@wa/contracts';

/** A queue integration as the server answers it, for the tests. */
export function anIntegration(
  id: number,
  type: QueueIntegrationDto['type'],
  name: string,
  extra: Partial<QueueIntegrationDto> = {},
): QueueIntegrationDto {
  return {
    id,
    type,
    name,
    projectName: type === 'dialogflow' ? 'projeto-df' : name,
    jsonContent: type === 'dialogflow' ? '••••••••' : '',
    language: type === 'dialogflow' ? 'pt-BR' : '',
    urlN8N: type === 'dialogflow' ? '' : 'https://hooks.example.com/flow',
    typebotSlug: type === 'typebot' ? 'atendimento' : '',
    typebotExpires: 1,
    typebotKeywordFinish: '',
    typebotKeywordRestart: '',
    typebotUnknownMessage: '',
    typebotRestartMessage: '',
    typebotDelayMessage: 1000,
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
    ...extra,
  };
}
