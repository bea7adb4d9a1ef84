import type { PublicPlanDto } from '@wa/contracts';
import { apiUrl } from '../../app/config';

/**
 * The second client of spec 01 §7: `GET /plans/list` is public and goes without cookies and without the
 * token (the only call that does). Rejects like the API slice does (`{status, data}`), so that
 * `errorText` reads it.
 */
export async function fetchPublicPlans(
  fetchFn: typeof fetch = (...a) => fetch(...a),
  baseUrl: string = apiUrl(),
): Promise<PublicPlanDto[]> {
  let res: Response;
  try {
    res = await fetchFn(`${baseUrl}/plans/list`, { method: 'GET', credentials: 'omit', headers: { accept: 'application/json' } });
  } catch (err) {
    throw { status: 'FETCH_ERROR', error: String(err) };
  }
  const data: unknown = await res.json().catch(() => undefined);
  if (!res.ok) throw { status: res.status, data };
  return Array.isArray(data) ? (data as PublicPlanDto[]).filter((p) => p && typeof p.id === 'number' && p.isPublic !== false) : [];
}
