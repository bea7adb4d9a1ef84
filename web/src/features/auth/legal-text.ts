/**
 * The legal pages' texts (/term, /privacy): files under web/public/legal an operator replaces
 * (`<kind>.<language>.md`, Portuguese when a language has none), in a small part of Markdown read here:
 * `#`..`###` headings, paragraphs, `-` and `1.` lists, `**bold**`, `[text](link)`. No HTML passes through.
 */
export type LegalKind = 'term' | 'privacy';

export type Inline = { text: string; bold?: boolean; href?: string };
export type LegalBlock =
  | { kind: 'heading'; level: 1 | 2 | 3; content: Inline[] }
  | { kind: 'paragraph'; content: Inline[] }
  | { kind: 'list'; ordered: boolean; items: Inline[][] };

export const legalTextUrl = (kind: LegalKind, language: string): string => `/legal/${kind}.${language}.md`;

/** Only web links and the site's own paths become links; anything else stays text. */
const SAFE_HREF = /^(https?:\/\/|mailto:|\/(?!\/))/i;

export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  const pattern = /\*\*(.+?)\*\*|\[([^\]]+)\]\(([^)\s]+)\)/g;
  let last = 0;
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
    if (m.index > last) out.push({ text: text.slice(last, m.index) });
    if (m[1] !== undefined) out.push({ text: m[1], bold: true });
    else if (SAFE_HREF.test(m[3])) out.push({ text: m[2], href: m[3] });
    else out.push({ text: m[0] });
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push({ text: text.slice(last) });
  return out;
}

export function parseLegalText(source: string): LegalBlock[] {
  const blocks: LegalBlock[] = [];
  let paragraph: string[] = [];
  let list: { ordered: boolean; items: Inline[][] } | null = null;
  const flush = () => {
    if (paragraph.length) blocks.push({ kind: 'paragraph', content: parseInline(paragraph.join(' ')) });
    if (list) blocks.push({ kind: 'list', ...list });
    paragraph = [];
    list = null;
  };
  for (const raw of source.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trim();
    const heading = /^(#{1,3})\s+(.*)$/.exec(line);
    const bullet = /^[-*]\s+(.*)$/.exec(line);
    const numbered = /^\d+[.)]\s+(.*)$/.exec(line);
    if (!line) flush();
    else if (heading) {
      flush();
      blocks.push({ kind: 'heading', level: heading[1].length as 1 | 2 | 3, content: parseInline(heading[2]) });
    } else if (bullet || numbered) {
      const ordered = !!numbered;
      if (paragraph.length || (list && list.ordered !== ordered)) flush();
      list ??= { ordered, items: [] };
      list.items.push(parseInline((bullet ?? numbered)?.[1] ?? ''));
    } else if (list) list.items[list.items.length - 1].push({ text: ` ${line}` });
    else paragraph.push(line);
  }
  flush();
  return blocks;
}

/** A text file's body, or null when there is none (a 404, or the single-page app's index in its place). */
async function readText(url: string, fetchFn: typeof fetch): Promise<string | null> {
  const res = await fetchFn(url, { headers: { accept: 'text/markdown, text/plain' } });
  if (!res.ok || (res.headers.get('content-type') ?? '').includes('text/html')) return null;
  const text = await res.text();
  return /^\s*<(!doctype|html)/i.test(text) ? null : text;
}

/** The text in the reader's language, else in Portuguese; null when the operator left none. */
export async function loadLegalText(kind: LegalKind, language: string, fetchFn: typeof fetch = fetch): Promise<string | null> {
  const own = await readText(legalTextUrl(kind, language), fetchFn).catch(() => null);
  if (own !== null || language === 'pt') return own;
  return readText(legalTextUrl(kind, 'pt'), fetchFn).catch(() => null);
}
