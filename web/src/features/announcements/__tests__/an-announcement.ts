import type { AnnouncementDto, UserDto } from '@wa/contracts';

export function anAnnouncement(id: number, title: string, extra: Partial<AnnouncementDto> = {}): AnnouncementDto {
  return {
    id,
    title,
    text: `Texto de ${title}`,
    priority: 3,
    status: true,
    mediaPath: null,
    mediaName: null,
    mediaUrl: null,
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
    ...extra,
  };
}

/** With an image: `mediaUrl` as the server gives it. */
export function withImage(a: AnnouncementDto, name = 'aviso.png'): AnnouncementDto {
  return { ...a, mediaPath: `announcements/${a.id}/${name}`, mediaName: name, mediaUrl: `/announcements/${a.id}/media` };
}

export function aUser(extra: Partial<UserDto> = {}): UserDto {
  return {
    id: 1,
    name: 'Root',
    email: 'root@x.com',
    profile: 'admin',
    companyId: 1,
    whatsappId: null,
    allTicket: 'enabled',
    super: true,
    online: true,
    queues: [],
    queueIds: [],
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
    ...extra,
  };
}

/**
 * A File of Node's own classes, and Node's FormData: the app's Request (Node's) only sends a multipart
 * body built of them (jsdom's would go as "[object FormData]"), so a test reads back what was uploaded.
 */
export async function nodeUpload(name: string, content = 'image-bytes'): Promise<{ file: File; NodeFormData: typeof FormData }> {
  const sample = await new Response('x=1', { headers: { 'content-type': 'application/x-www-form-urlencoded' } }).formData();
  const NodeFormData = sample.constructor as typeof FormData;
  const holder = new NodeFormData();
  holder.append('file', await new Response(content).blob(), name);
  return { file: holder.get('file') as File, NodeFormData };
}
