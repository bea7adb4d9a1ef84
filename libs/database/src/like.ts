/** `text` for a LIKE pattern with its wildcards (`%`, `_`) and the escape character taken literally (ESCAPE '\\'). */
export function likeEscaped(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
