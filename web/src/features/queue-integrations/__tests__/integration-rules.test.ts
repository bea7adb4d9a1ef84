import { describe, expect, it } from '@jest/globals';
import {
  CREDENTIALS_MASK,
  INTEGRATION_TYPES,
  integrationFields,
  integrationFormOf,
  integrationPayload,
  isHttpUrl,
  testSessionOf,
  validateIntegrationForm,
  type IntegrationFormValues,
} from '../integration-rules';
import { anIntegration } from './an-integration';

const form = (extra: Partial<IntegrationFormValues> = {}): IntegrationFormValues => ({
  ...integrationFormOf(null),
  name: 'Fluxo',
  ...extra,
});
const CREDENTIALS = JSON.stringify({
  client_email: 'bot@projeto.iam.gserviceaccount.com',
  private_key: '-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----\n',
});

describe('queue integration form (spec 02 §5, §9)', () => {
  it('offers the four types; a new one starts as typebot with its defaults (expires 1 min, delay 1000 ms)', () => {
    expect(INTEGRATION_TYPES).toEqual(['dialogflow', 'n8n', 'webhook', 'typebot']);
    expect(integrationFormOf(null)).toMatchObject({
      type: 'typebot',
      name: '',
      typebotExpires: '1',
      typebotDelayMessage: '1000',
      language: 'pt-BR',
      urlN8N: '',
    });
  });

  it('each type has its fields', () => {
    expect(integrationFields('n8n')).toEqual({ url: true, typebot: false, dialogflow: false });
    expect(integrationFields('webhook')).toEqual({ url: true, typebot: false, dialogflow: false });
    expect(integrationFields('typebot')).toEqual({ url: true, typebot: true, dialogflow: false });
    expect(integrationFields('dialogflow')).toEqual({ url: false, typebot: false, dialogflow: true });
  });

  it('name: required, 2 to 50 characters', () => {
    const webhook = { type: 'webhook' as const, urlN8N: 'https://example.com/hook' };
    expect(validateIntegrationForm(form({ ...webhook, name: ' ' })).name).toBe('required');
    expect(validateIntegrationForm(form({ ...webhook, name: 'A' })).name).toBe('tooShort');
    expect(validateIntegrationForm(form({ ...webhook, name: 'A'.repeat(51) })).name).toBe('tooLong');
    expect(validateIntegrationForm(form({ ...webhook, name: 'A'.repeat(50) }))).toEqual({});
  });

  it('n8n and webhook need an http(s) URL', () => {
    for (const type of ['n8n', 'webhook'] as const) {
      expect(validateIntegrationForm(form({ type }))).toEqual({ urlN8N: 'required' });
      expect(validateIntegrationForm(form({ type, urlN8N: 'example.com/hook' }))).toEqual({ urlN8N: 'invalidUrl' });
      expect(validateIntegrationForm(form({ type, urlN8N: 'ftp://example.com' }))).toEqual({ urlN8N: 'invalidUrl' });
      expect(validateIntegrationForm(form({ type, urlN8N: 'http://93.184.215.14/hook' }))).toEqual({});
    }
    expect(isHttpUrl(' https://example.com ')).toBe(true);
  });

  it('typebot needs the URL and its slug; expiry and delay are whole numbers', () => {
    expect(validateIntegrationForm(form({ type: 'typebot' }))).toEqual({ urlN8N: 'required', typebotSlug: 'required' });
    const ok = form({ type: 'typebot', urlN8N: 'https://typebot.example.com', typebotSlug: 'vendas' });
    expect(validateIntegrationForm(ok)).toEqual({});
    expect(validateIntegrationForm({ ...ok, typebotExpires: '', typebotDelayMessage: '1.5' })).toEqual({
      typebotExpires: 'required',
      typebotDelayMessage: 'integer',
    });
    expect(validateIntegrationForm({ ...ok, typebotExpires: '10081', typebotDelayMessage: '-1' })).toEqual({
      typebotExpires: 'integer',
      typebotDelayMessage: 'integer',
    });
  });

  it('dialogflow needs its project, credentials and a language', () => {
    expect(validateIntegrationForm(form({ type: 'dialogflow' }))).toEqual({ projectName: 'required', jsonContent: 'required' });
    expect(validateIntegrationForm(form({ type: 'dialogflow', projectName: 'p', jsonContent: CREDENTIALS_MASK, language: 'fr' }))).toEqual({
      language: 'required',
    });
    expect(validateIntegrationForm(form({ type: 'dialogflow', projectName: 'p', jsonContent: CREDENTIALS, language: 'es' }))).toEqual({});
  });

  it('n8n, webhook and typebot send the name as the project name, and only their own fields', () => {
    expect(integrationPayload(form({ type: 'webhook', name: ' Meu hook ', urlN8N: ' http://93.184.215.14/hook ' }))).toEqual({
      type: 'webhook',
      name: 'Meu hook',
      projectName: 'Meu hook',
      urlN8N: 'http://93.184.215.14/hook',
    });
    expect(
      integrationPayload(
        form({
          type: 'typebot',
          urlN8N: 'https://typebot.example.com',
          typebotSlug: ' vendas ',
          typebotExpires: '5',
          typebotDelayMessage: '1500',
          typebotKeywordFinish: '#sair',
          typebotUnknownMessage: 'Não entendi',
        }),
      ),
    ).toEqual({
      type: 'typebot',
      name: 'Fluxo',
      projectName: 'Fluxo',
      urlN8N: 'https://typebot.example.com',
      typebotSlug: 'vendas',
      typebotExpires: 5,
      typebotDelayMessage: 1500,
      typebotKeywordFinish: '#sair',
      typebotKeywordRestart: '',
      typebotUnknownMessage: 'Não entendi',
      typebotRestartMessage: '',
    });
  });

  it('dialogflow sends its project, credentials as shown (the mask keeps the stored ones) and language', () => {
    const saved = integrationFormOf(anIntegration(4, 'dialogflow', 'Bot DF'));
    expect(saved).toMatchObject({ type: 'dialogflow', projectName: 'projeto-df', jsonContent: CREDENTIALS_MASK, language: 'pt-BR' });
    expect(integrationPayload(saved)).toEqual({
      type: 'dialogflow',
      name: 'Bot DF',
      projectName: 'projeto-df',
      jsonContent: CREDENTIALS_MASK,
      language: 'pt-BR',
    });
  });

  it('edits a saved typebot as the server has it', () => {
    expect(integrationFormOf(anIntegration(2, 'typebot', 'Typebot', { typebotExpires: 30, typebotDelayMessage: 500 }))).toMatchObject({
      type: 'typebot',
      urlN8N: 'https://hooks.example.com/flow',
      typebotSlug: 'atendimento',
      typebotExpires: '30',
      typebotDelayMessage: '500',
    });
  });

  it('the session test needs the credentials in clear', () => {
    expect(testSessionOf(form({ type: 'dialogflow', projectName: 'p', jsonContent: CREDENTIALS_MASK }))).toBe('masked');
    expect(testSessionOf(form({ type: 'dialogflow', projectName: '', jsonContent: CREDENTIALS }))).toBe('missing');
    expect(testSessionOf(form({ type: 'dialogflow', projectName: ' p ', jsonContent: CREDENTIALS, language: 'en' }))).toEqual({
      projectName: 'p',
      jsonContent: CREDENTIALS,
      language: 'en',
    });
  });
});
