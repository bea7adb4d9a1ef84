import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { waitFor } from '@testing-library/react';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderWithProviders } from '../../../test/render';
import { loadLegalText, parseInline, parseLegalText } from '../legal-text';
import LegalPage from '../LegalPage';

/** web/public/legal: the texts the build ships and an operator replaces. */
const legalDir = join(dirname(fileURLToPath(import.meta.url)), '../../../../public/legal');
const realFetch = globalThis.fetch;
let served: string[] = [];

/** Serves web/public as the web server does (a missing file: 404). */
function servePublic(only?: (path: string) => boolean) {
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const path = typeof input === 'string' ? input : input instanceof URL ? input.pathname : new URL(input.url).pathname;
    served.push(path);
    const file = join(legalDir, path.replace(/^\/legal\//, ''));
    if ((only && !only(path)) || !existsSync(file)) return new Response('not found', { status: 404 });
    return new Response(readFileSync(file, 'utf8'), { status: 200, headers: { 'content-type': 'text/markdown' } });
  }) as unknown as typeof fetch;
}
beforeEach(() => {
  served = [];
});
afterEach(() => {
  globalThis.fetch = realFetch;
});

describe('/term and /privacy: real texts the operator can replace', () => {
  it('ships a terms of service and a privacy policy in pt, en and es, each with its sections', () => {
    for (const kind of ['term', 'privacy'])
      for (const lng of ['pt', 'en', 'es']) {
        const blocks = parseLegalText(readFileSync(join(legalDir, `${kind}.${lng}.md`), 'utf8'));
        expect(blocks[0]).toMatchObject({ kind: 'heading', level: 1 });
        expect(blocks.filter((b) => b.kind === 'heading' && b.level === 2).length).toBeGreaterThanOrEqual(6);
      }
  });

  it("shows the operator's file for the reader's language", async () => {
    servePublic();
    const r = renderWithProviders(<LegalPage kind="term" />, { route: '/term' });
    await waitFor(() => expect(r.getByRole('heading', { level: 1 }).textContent).toBe('Termos de uso'));
    expect(served).toEqual(['/legal/term.pt.md']);
    expect(r.getAllByRole('heading', { level: 2 }).length).toBeGreaterThanOrEqual(6);
    expect(r.getByRole('link', { name: 'Política de privacidade' }).getAttribute('href')).toBe('/privacy');
  });

  it('falls back to Portuguese when a language has no file, and to a notice when there is none', async () => {
    servePublic((path) => path.endsWith('.pt.md'));
    expect((await loadLegalText('privacy', 'es'))?.startsWith('# Política de privacidade')).toBe(true);
    expect(served).toEqual(['/legal/privacy.es.md', '/legal/privacy.pt.md']);
    servePublic(() => false);
    const r = renderWithProviders(<LegalPage kind="privacy" />, { route: '/privacy' });
    await waitFor(() => expect(r.getByRole('heading').textContent).toBe('Política de privacidade'));
    expect(r.getByText(/publicado pela empresa que opera/)).toBeTruthy();
  });

  it('reads a small part of Markdown and lets no script link through', () => {
    expect(parseInline('a **b** [c](/term) [d](javascript:alert(1))')).toEqual([
      { text: 'a ' },
      { text: 'b', bold: true },
      { text: ' ' },
      { text: 'c', href: '/term' },
      { text: ' ' },
      { text: '[d](javascript:alert(1)' },
      { text: ')' },
    ]);
    expect(parseLegalText('# T\n\n- a\n- b\n\n1. c\n\ntext\nmore')).toEqual([
      { kind: 'heading', level: 1, content: [{ text: 'T' }] },
      { kind: 'list', ordered: false, items: [[{ text: 'a' }], [{ text: 'b' }]] },
      { kind: 'list', ordered: true, items: [[{ text: 'c' }]] },
      { kind: 'paragraph', content: [{ text: 'text more' }] },
    ]);
  });
});
