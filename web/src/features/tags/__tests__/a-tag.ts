import type { TagDto } from '@wa/contracts';

export function aTag(id: number, name: string, extra: Partial<TagDto> = {}): TagDto {
  return { id, name, color: '#1976D2', kanban: 0, userId: 1, companyId: 1, ...extra };
}
