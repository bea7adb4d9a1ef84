import { Avatar, Center } from '@chakra-ui/react';

const SIZES = { xs: '6', sm: '9', md: '10' } as const;

export function initials(name: string | null | undefined): string {
  const words = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '?';
  const first = Array.from(words[0])[0] ?? '';
  const last = words.length > 1 ? (Array.from(words[words.length - 1])[0] ?? '') : '';
  return (first + last).toUpperCase();
}

/**
 * A contact's picture, or its initials. The initials are a plain element: a list of tickets renders
 * dozens of these, and Chakra's Avatar runs a state machine each (it watches the image load). They are CSS
 * content, as a picture is: no text of the page (nor of a button holding it).
 */
export function ContactAvatar({ name, src, size = 'md' }: { name?: string | null; src?: string | null; size?: keyof typeof SIZES }) {
  if (src)
    return (
      <Avatar.Root size={size} colorPalette="teal" flexShrink={0}>
        <Avatar.Fallback name={name ?? undefined} />
        <Avatar.Image src={src} />
      </Avatar.Root>
    );
  return (
    <Center
      boxSize={SIZES[size]}
      flexShrink={0}
      borderRadius="full"
      bg="teal.subtle"
      color="teal.fg"
      fontWeight="medium"
      textStyle={size === 'xs' ? '2xs' : 'sm'}
      aria-hidden
      // drawn, not written: the initials are a picture of the person, not a button's label (a button named "Conta"
      // whose text read "AL" would fail WCAG's label in name)
      data-initials={initials(name)}
      _before={{ content: 'attr(data-initials)' }}
    />
  );
}
