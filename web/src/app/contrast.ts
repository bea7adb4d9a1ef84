/**
 * Text on a colour the user chose (a queue's, a tag's): black or white, whichever reads better on it, by the
 * colour's relative luminance (WCAG 2). Every place that paints a queue or tag colour as a background takes its
 * text colour from here, so a light colour (#FFFF00, #FFFFFF) gets black text and a dark one white.
 */

/** #rgb, #rrggbb or #rrggbbaa as [r, g, b] (0–255); null for anything else (a name, rgb(), a typo). */
export function rgbOf(color: string): [number, number, number] | null {
  const c = color.trim();
  let hex: string;
  if (/^#[0-9a-f]{3}$/i.test(c)) hex = [...c.slice(1)].map((x) => x + x).join('');
  else if (/^#([0-9a-f]{6}|[0-9a-f]{8})$/i.test(c)) hex = c.slice(1, 7);
  else return null;
  return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
}

/** WCAG 2's relative luminance of a colour, 0 (black) to 1 (white); null when the colour is not a hex one. */
export function relativeLuminance(color: string): number | null {
  const rgb = rgbOf(color);
  if (!rgb) return null;
  const [r, g, b] = rgb.map((x) => {
    const v = x / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2's contrast ratio of two hex colours (1 to 21); null when either is not a hex colour. */
export function contrastRatio(a: string, b: string): number | null {
  const la = relativeLuminance(a);
  const lb = relativeLuminance(b);
  if (la === null || lb === null) return null;
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** Black or white text, whichever contrasts more with the colour (a name or a bad value: taken as light, black). */
export function readableTextOn(color: string): '#000000' | '#ffffff' {
  const l = relativeLuminance(color);
  if (l === null) return '#000000';
  // the contrast against black beats the one against white
  return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? '#000000' : '#ffffff';
}

/** A background of the colour with its readable text, for an element's `style`. */
export function colorPillStyle(color: string): { background: string; color: string } {
  return { background: color, color: readableTextOn(color) };
}
