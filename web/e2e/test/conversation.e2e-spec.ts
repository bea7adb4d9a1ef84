import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, poll, productUrls, step } from './browser';

/**
 * Working a conversation in a real browser (issue 12): a customer's photo arrives from the sandbox phone
 * and shows in the chat; the agent sends a photo with a caption (the phone receives its bytes) and answers
 * the customer's photo with a reply that shows it quoted, edits it and deletes it for everyone, uses a quick
 * reply, adds a note and a tag in the contact drawer; then transfers the ticket to another queue and
 * sees it leave the list of open tickets.
 */
const { webUrl, apiUrl } = productUrls();
const run = Date.now().toString(36);
const number = `55319${String(Date.now()).slice(-8)}`;

/** 24×24 PNGs: red (the customer's) and blue (the agent's). */
const RED_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAABgAAAAYCAIAAABvFaqvAAAAH0lEQVR4nGO4o6FBFcQwatCoQaMGjRo0atCoQQNvEADnQaMfLH9TNwAAAABJRU5ErkJggg==',
  'base64',
);
const BLUE_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAABgAAAAYCAIAAABvFaqvAAAAH0lEQVR4nGOQi7pDFcQwatCoQaMGjRo0atCoQQNvEACwoP0fLozYaAAAAABJRU5ErkJggg==',
  'base64',
);

let browser: Browser;
let page: Page;
let connectionId = 0;
let ticketId = 0;
let ticketUuid = '';
const pages = () => (page && !page.isClosed() ? [page] : []);
const token = () => page.evaluate(() => localStorage.getItem('token') ?? '');

async function api<T>(path: string, init: RequestInit = {}): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = { authorization: `Bearer ${await token()}` };
  if (!(init.body instanceof FormData)) headers['content-type'] = 'application/json';
  const res = await fetch(`${apiUrl}${path}`, { ...init, headers });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

/** The images of the chat that the browser really decoded (their pixels arrived). */
const decodedImages = (fromMe: boolean) =>
  page
    .locator(`[data-testid=message][data-from-me=${fromMe}] [data-testid=media-image]`)
    .evaluateAll((imgs) => (imgs as HTMLImageElement[]).filter((i) => i.complete && i.naturalWidth === 24).length);

beforeAll(async () => {
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1366, height: 820 }, locale: 'pt-BR' });
  page = await context.newPage();
  await page.goto(`${webUrl}/login`);
  await page.getByTestId('login-email').fill('admin@admin.com');
  await page.getByTestId('login-password').fill('123456');
  await page.getByTestId('login-submit').click();
  await page.waitForURL(`${webUrl}/tickets`);
  const { body: connections } = await api<Array<{ id: number; channel: string; status: string }>>('/whatsapp');
  connectionId = (connections.find((c) => c.channel === 'sandbox' && c.status === 'CONNECTED') ?? connections[0]).id;
});

afterAll(async () => {
  await browser?.close();
});

describe('a conversation with media and replies', () => {
  it("shows the customer's photo from the sandbox phone: previewed (still unread), then in the chat", () =>
    step('inbound photo', pages, async () => {
      const form = new FormData();
      form.append('from', number);
      form.append('name', `Cliente ${run}`);
      form.append('body', 'olha a peça quebrada');
      form.append('media', new Blob([new Uint8Array(RED_PNG)], { type: 'image/png' }), 'IMG-0001.png');
      const sent = await api(`/whatsappsession/${connectionId}/sandbox/inbound`, { method: 'POST', body: form });
      expect(sent.status).toBe(202);
      const ticket = await poll('the ticket of the photo', async () => {
        const res = await api<{ tickets: Array<{ id: number; uuid: string }> }>(`/tickets?showAll=true&searchParam=${number}`);
        return res.body.tickets[0];
      });
      ticketId = ticket.id;
      ticketUuid = ticket.uuid;
      // a look first (the preview): the conversation stays unread
      await page.getByTestId('tickets-tab-pending').click();
      const card = page.getByTestId('ticket-card').filter({ hasText: `Cliente ${run}` });
      await card.getByTestId('ticket-preview').click();
      const preview = page.getByTestId('ticket-preview-dialog');
      await preview.getByTestId('message').filter({ hasText: 'olha a peça quebrada' }).waitFor();
      await preview.getByRole('button', { name: 'Fechar' }).click();
      await card.getByTestId('ticket-unread').waitFor();
      // the agent takes the conversation and opens it
      expect((await api(`/tickets/${ticket.id}`, { method: 'PUT', body: JSON.stringify({ status: 'open' }) })).status).toBe(200);
      await page.goto(`${webUrl}/tickets/${ticket.uuid}`);
      await page.getByTestId('ticket-chat').waitFor();
      await poll('the photo decoded in the chat', async () => (await decodedImages(false)) === 1);
      expect(await page.locator('[data-testid=message][data-from-me=false]').last().innerText()).toContain('olha a peça quebrada');
    }));

  it('sends a photo with a caption: shown in the chat, its bytes on the phone', () =>
    step('outbound photo', pages, async () => {
      await page.getByTestId('file-input').setInputFiles({ name: 'peça nova.png', mimeType: 'image/png', buffer: BLUE_PNG });
      await page.getByTestId('chosen-files').getByText('peça nova.png').waitFor();
      await page.getByTestId('message-textarea').fill('Temos esta em estoque');
      await page.getByTestId('message-send').click();
      await poll('our photo decoded in the chat', async () => (await decodedImages(true)) === 1);
      const item = await poll('the photo in the sandbox outbox', async () => {
        const { body } = await api<{ items: Array<{ to: string; body: string; media: { sha256: string; mimetype: string } | null }> }>(
          `/whatsappsession/${connectionId}/sandbox/outbox`,
        );
        return body.items.find((i) => i.to === number && i.media);
      });
      expect(item.body).toContain('Temos esta em estoque');
      expect(item.media).toMatchObject({ mimetype: 'image/png', sha256: createHash('sha256').update(BLUE_PNG).digest('hex') });
    }));

  it("answers the customer's photo with a reply that shows it quoted", () =>
    step('reply', pages, async () => {
      const theirs = page.locator('[data-testid=message][data-from-me=false]').last();
      const theirId = Number(await theirs.getAttribute('data-message-id'));
      await theirs.hover();
      await page.locator('.line').filter({ has: theirs }).getByTestId('message-options').click();
      await page.getByTestId('message-option-reply').click();
      await page.getByTestId('reply-preview').getByText('olha a peça quebrada').waitFor();
      await page.getByTestId('message-textarea').fill('Vou trocar essa peça');
      await page.getByTestId('message-textarea').press('Enter');
      const reply = page.locator('[data-testid=message][data-from-me=true]').filter({ hasText: 'Vou trocar essa peça' });
      await reply.waitFor();
      expect(await reply.getByTestId('message-quoted').getAttribute('data-quoted-id')).toBe(String(theirId));
      expect(await reply.getByTestId('message-quoted').innerText()).toContain('olha a peça quebrada');
      expect(await page.getByTestId('reply-preview').count()).toBe(0);
    }));

  it('edits its reply and deletes it for everyone: the chat and the phone show both', () =>
    step('edit and delete', pages, async () => {
      const mine = page.locator('[data-testid=message][data-from-me=true]').filter({ hasText: 'Vou trocar essa peça' });
      // the options appear once WhatsApp has the message (sent)
      await poll('the reply sent', async () => Number(await mine.locator('[data-ack]').first().getAttribute('data-ack')) >= 1);
      await mine.hover();
      await page.locator('.line').filter({ has: mine }).getByTestId('message-options').click();
      await page.getByTestId('message-option-edit').click();
      await page.getByTestId('edit-message-text').fill('Vou trocar essa peça hoje');
      await page.getByTestId('edit-message-save').click();
      const edited = page.locator('[data-testid=message][data-from-me=true]').filter({ hasText: 'Vou trocar essa peça hoje' });
      await edited.getByTestId('message-edited').waitFor();
      await edited.hover();
      await page.locator('.line').filter({ has: edited }).getByTestId('message-options').click();
      await page.getByTestId('message-option-delete').click();
      await page.getByTestId('confirm-ok').click();
      await edited.getByTestId('message-deleted').waitFor();
      const changes = await poll('the edit and the deletion on the phone', async () => {
        const { body } = await api<{ items: Array<{ to: string; kind: string; body: string }> }>(
          `/whatsappsession/${connectionId}/sandbox/outbox`,
        );
        const mineOnPhone = body.items.filter((i) => i.to === number && i.kind !== 'send');
        return mineOnPhone.length === 2 ? mineOnPhone : undefined;
      });
      expect(changes.map((i) => [i.kind, i.body])).toEqual([
        ['delete', ''],
        ['edit', 'Vou trocar essa peça hoje'],
      ]);
    }));

  it('makes a quick reply with a variable and an attachment on its page, then uses it after "/": filled and sent with its file', () =>
    step('quick reply', pages, async () => {
      const shortcut = `saudacao${run}`;
      // through the side menu (contacts and quick replies are in it for everyone)
      await page.getByTestId('menu-contacts').waitFor();
      await page.getByTestId('menu-quickMessages').click();
      await page.waitForURL(`${webUrl}/quick-messages`);
      await page.getByTestId('quick-message-add').click();
      const dialog = page.getByTestId('quick-message-dialog');
      await dialog.getByTestId('quick-message-save').click();
      await dialog.getByText('Obrigatório').waitFor();
      await dialog.getByTestId('quick-message-shortcode').fill(shortcut);
      await dialog.getByTestId('quick-message-text').fill('Olá ');
      await dialog.getByTestId('quick-message-text').press('End');
      await dialog.getByTestId('quick-message-var-firstName').click();
      expect(await dialog.getByTestId('quick-message-text').inputValue()).toBe('Olá {{firstName}}');
      await dialog.getByTestId('quick-message-text').fill('Olá {{firstName}}, seu protocolo é {{protocol}}');
      await dialog.getByTestId('quick-message-file').setInputFiles({ name: 'tabela.png', mimeType: 'image/png', buffer: BLUE_PNG });
      await dialog.getByTestId('quick-message-save').click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByTestId('quick-message-row').filter({ hasText: shortcut }).getByText('tabela.png').waitFor();

      await page.goto(`${webUrl}/tickets/${ticketUuid}`);
      await page.getByTestId('ticket-chat').waitFor();
      await page.getByTestId('sign-switch').click();
      await page.getByTestId('message-textarea').fill(`/${shortcut.slice(0, 8)}`);
      const option = page.getByTestId('quick-reply-option').filter({ hasText: shortcut });
      await option.waitFor();
      expect((await option.innerText()).endsWith('...')).toBe(true);
      await option.click();
      expect(await page.getByTestId('message-textarea').inputValue()).toBe('Olá {{firstName}}, seu protocolo é {{protocol}}');
      await page.getByTestId('chosen-files').getByText('tabela.png').waitFor();
      await page.getByTestId('message-textarea').press('Enter');
      const sent = page.locator('[data-testid=message][data-from-me=true]').filter({ hasText: 'Olá Cliente, seu protocolo é' });
      await sent.waitFor();
      expect(await sent.getAttribute('data-media-type')).toBe('image');
      expect(await sent.innerText()).toMatch(new RegExp(`protocolo é \\d{14}${ticketId}`));
      await page.getByTestId('sign-switch').click();
    }));

  it('records audio and sends it as a voice note (OGG/Opus, ptt); a recording too short is discarded; picks an emoji', () =>
    step('audio and emoji', pages, async () => {
      const audios = () => page.locator('[data-testid=message][data-from-me=true][data-media-type=audio]').count();
      const before = await audios();
      // a blip: under 10,000 bytes, thrown away. It is sent the moment the recording shows, from the page itself:
      // 10,000 bytes are 0.6 s of MP3 at 128 kbps, which a click from here took on a busy machine (it was sent)
      await page.evaluate(
        () =>
          new Promise<void>((resolve) => {
            const send = () => {
              const button = document.querySelector<HTMLElement>('[data-testid=recording-send]');
              if (button) button.click();
              return !!button;
            };
            const watch = new MutationObserver(() => {
              if (!send()) return;
              watch.disconnect();
              resolve();
            });
            watch.observe(document.body, { childList: true, subtree: true });
            document.querySelector<HTMLElement>('[data-testid=record-button]')?.click();
          }),
      );
      await page.getByTestId('record-button').waitFor();
      // three seconds of the fake microphone's tone: about 48 KB of MP3 at 128 kbps
      await page.getByTestId('record-button').click();
      await page.getByTestId('recording').waitFor();
      await new Promise((r) => setTimeout(r, 3000));
      await page.getByTestId('recording-send').click();
      await poll('the recording in the chat', async () => (await audios()) === before + 1);
      const sent = await poll('the recording on the phone', async () => {
        const { body } = await api<{
          items: Array<{ to: string; media: { mimetype: string; size: number; fileName: string; ptt?: boolean } | null }>;
        }>(`/whatsappsession/${connectionId}/sandbox/outbox`);
        return body.items.find((i) => i.to === number && i.media?.mimetype.startsWith('audio/ogg'));
      });
      // recorded as MP3 in the browser, transcoded by tickets to a WhatsApp voice note: 3 s of Opus at 32 kbit/s
      expect(sent.media).toMatchObject({ mimetype: 'audio/ogg; codecs=opus', ptt: true });
      expect(sent.media?.size).toBeGreaterThan(5_000);
      expect(sent.media?.fileName).toMatch(/\.ogg$/);
      expect(await audios()).toBe(before + 1);

      await page.getByTestId('message-textarea').fill('Obrigado ');
      await page.getByTestId('emoji-button').click();
      const picker = page.locator('em-emoji-picker');
      await picker.waitFor();
      await picker.locator('button[aria-label]').first().waitFor();
      const chosen = await picker.locator('button[aria-label]').first().innerText();
      await picker.locator('button[aria-label]').first().click();
      expect(await page.getByTestId('message-textarea').inputValue()).toBe(`Obrigado ${chosen.trim()}`);
      await page.keyboard.press('Escape');
      await page.getByTestId('message-textarea').fill('');
    }));

  it('adds a note and a tag in the contact drawer: the note listed, the tag on the ticket card', () =>
    step('note and tag', pages, async () => {
      const tag = await api<{ id: number }>('/tags', { method: 'POST', body: JSON.stringify({ name: `Troca ${run}`, color: '#d81b60' }) });
      expect(tag.status).toBe(201);
      await page.getByTestId('chat-contact-button').click();
      const drawer = page.getByTestId('contact-drawer');
      await drawer.waitFor();
      expect((await drawer.boundingBox())?.width).toBe(320);
      await drawer.getByTestId('note-text').fill('A');
      await drawer.getByTestId('note-save').click();
      await drawer.getByText('Mínimo de 2 caracteres').waitFor();
      await drawer.getByTestId('note-text').fill('Cliente prefere retirar na loja');
      await drawer.getByTestId('note-save').click();
      await page.getByText('Observação adicionada com sucesso!').first().waitFor();
      await drawer.getByTestId('note').filter({ hasText: 'Cliente prefere retirar na loja' }).waitFor();

      await drawer.getByTestId('ticket-tags').click();
      await page.getByTestId(`ticket-tags-option-${tag.body.id}`).click();
      await page.keyboard.press('Escape');
      await drawer
        .getByTestId('contact-drawer-tag')
        .filter({ hasText: `Troca ${run}` })
        .waitFor();
      await page
        .getByTestId('ticket-card')
        .filter({ hasText: `Cliente ${run}` })
        .getByText(`Troca ${run}`)
        .waitFor();
      await drawer.getByTestId('contact-drawer-close').click();
    }));

  it('transfers the ticket to another queue: it leaves the open list at once', () =>
    step('transfer', pages, async () => {
      const queue = await api<{ id: number; name: string }>('/queue', {
        method: 'POST',
        body: JSON.stringify({ name: `Pós-venda ${run}`, color: '#aa3366' }),
      });
      expect(queue.status).toBe(201);
      await page.getByTestId('tickets-tab-open').click();
      const card = page.getByTestId('ticket-card').filter({ hasText: `Cliente ${run}` });
      await card.waitFor();
      await page.getByTestId('ticket-options').click();
      await page.getByTestId('ticket-option-transfer').click();
      const modal = page.getByTestId('transfer-modal');
      await modal.getByTestId('transfer-queue').selectOption(String(queue.body.id));
      await modal.getByTestId('transfer-save').click();
      await page.waitForURL(`${webUrl}/tickets`);
      await card.waitFor({ state: 'detached' });
      const after = await api<{ status: string; queueId: number; userId: number | null }>(`/tickets/${ticketId}`);
      expect(after.body).toMatchObject({ status: 'pending', queueId: queue.body.id, userId: null });
    }));
});
