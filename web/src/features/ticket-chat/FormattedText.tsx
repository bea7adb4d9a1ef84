import { Fragment } from 'react';

/** WhatsApp's *bold* inside a message (the sign option writes the agent's name that way); the rest is plain text. */
export function FormattedText({ text }: { text: string }) {
  const parts = text.split(/(\*[^*\n]+\*)/g);
  return (
    <>
      {parts.map((part, i) =>
        /^\*[^*\n]+\*$/.test(part) ? <strong key={i}>{part.slice(1, -1)}</strong> : <Fragment key={i}>{part}</Fragment>,
      )}
    </>
  );
}
