import type { MessageLocation } from '@wa/contracts';
import { invalidField } from '@wa/server-kit';

const optionalText = (v: unknown, field: string, max: number): string | undefined => {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string' || v.length > max) throw invalidField(field, `At most ${max} characters of text.`);
  return v.trim() || undefined;
};

/**
 * A location or a contact card asked of the API or the console, checked: coordinates within the globe (latitude -90..90,
 * longitude -180..180), a contact with a name and a number of 8 to 20 digits; either instead of files, not both.
 */
export function specialContent(
  location: unknown,
  contact: unknown,
  files: number,
): { location?: MessageLocation; contact?: { name: string; number: string } } {
  if (location === undefined && contact === undefined) return {};
  if (location !== undefined && contact !== undefined) throw invalidField('location', 'Send a location or a contact, not both.');
  if (files > 0) throw invalidField(location !== undefined ? 'location' : 'contact', 'A location or a contact goes without files.');
  if (location !== undefined) {
    const l = location as Record<string, unknown> | null;
    const lat = typeof l?.latitude === 'string' && l.latitude.trim() !== '' ? Number(l.latitude) : l?.latitude;
    const lng = typeof l?.longitude === 'string' && l.longitude.trim() !== '' ? Number(l.longitude) : l?.longitude;
    if (!l || typeof l !== 'object' || typeof lat !== 'number' || !Number.isFinite(lat) || lat < -90 || lat > 90)
      throw invalidField('location.latitude', 'A latitude between -90 and 90.');
    if (typeof lng !== 'number' || !Number.isFinite(lng) || lng < -180 || lng > 180)
      throw invalidField('location.longitude', 'A longitude between -180 and 180.');
    const name = optionalText(l.name, 'location.name', 200);
    const address = optionalText(l.address, 'location.address', 500);
    return { location: { latitude: lat, longitude: lng, ...(name ? { name } : {}), ...(address ? { address } : {}) } };
  }
  const c = contact as Record<string, unknown> | null;
  const name = typeof c?.name === 'string' ? c.name.trim() : '';
  if (!c || typeof c !== 'object' || !name || name.length > 200)
    throw invalidField('contact.name', 'The contact needs a name (up to 200 characters).');
  const digits = typeof c.number === 'string' || typeof c.number === 'number' ? String(c.number).replace(/\D/g, '') : '';
  if (!/^\d{8,20}$/.test(digits))
    throw invalidField('contact.number', 'The contact needs a number with country and area code (8 to 20 digits).');
  return { contact: { name, number: digits } };
}
