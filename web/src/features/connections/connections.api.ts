import type { CreateConnectionRequest, PairingCodeRequest, PairingCodeResponse, UpdateConnectionRequest, WhatsappDto } from '@wa/contracts';
import { api } from '../../app/api';

/** Replaces a connection in the list (or adds it), keeping the list's order. */
export function upsertConnection(list: WhatsappDto[], w: WhatsappDto): WhatsappDto[] {
  const merged = list.some((x) => x.id === w.id) ? list.map((x) => (x.id === w.id ? { ...x, ...w } : x)) : [...list, w];
  // one default per company: the server clears the others, the list follows at once
  return w.isDefault ? merged.map((x) => (x.id !== w.id && x.isDefault ? { ...x, isDefault: false } : x)) : merged;
}

export const connectionsApi = api.injectEndpoints({
  endpoints: (build) => ({
    listWhatsapps: build.query<WhatsappDto[], void>({
      query: () => ({ url: '/whatsapp', params: { session: 0 } }),
      providesTags: ['Whatsapp'],
    }),
    createWhatsapp: build.mutation<WhatsappDto, CreateConnectionRequest>({
      query: (body) => ({ url: '/whatsapp', method: 'POST', body }),
      async onQueryStarted(_a, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data) dispatch(connectionsApi.util.updateQueryData('listWhatsapps', undefined, (d) => upsertConnection(d, data)));
      },
    }),
    updateWhatsapp: build.mutation<WhatsappDto, { id: number } & UpdateConnectionRequest>({
      query: ({ id, ...body }) => ({ url: `/whatsapp/${id}`, method: 'PUT', body }),
      async onQueryStarted(_a, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data) dispatch(connectionsApi.util.updateQueryData('listWhatsapps', undefined, (d) => upsertConnection(d, data)));
      },
    }),
    deleteWhatsapp: build.mutation<void, number>({
      query: (id) => ({ url: `/whatsapp/${id}`, method: 'DELETE' }),
      async onQueryStarted(id, { dispatch, queryFulfilled }) {
        const ok = await queryFulfilled.then(() => true).catch(() => false);
        if (ok) dispatch(connectionsApi.util.updateQueryData('listWhatsapps', undefined, (d) => d.filter((w) => w.id !== id)));
      },
    }),
    /** POST start ("try again"), PUT a new QR code, DELETE disconnect. */
    sessionAction: build.mutation<unknown, { id: number; action: 'start' | 'newQr' | 'disconnect' }>({
      query: ({ id, action }) => ({
        url: `/whatsappsession/${id}`,
        method: action === 'start' ? 'POST' : action === 'newQr' ? 'PUT' : 'DELETE',
      }),
    }),
    /** A pairing code for the phone `number` (digits with the country code), while the connection shows its QR. */
    requestPairingCode: build.mutation<PairingCodeResponse, { id: number } & PairingCodeRequest>({
      query: ({ id, number }) => ({ url: `/whatsappsession/${id}/pairing-code`, method: 'POST', body: { number } }),
    }),
  }),
});

export const {
  useListWhatsappsQuery,
  useCreateWhatsappMutation,
  useUpdateWhatsappMutation,
  useDeleteWhatsappMutation,
  useSessionActionMutation,
  useRequestPairingCodeMutation,
} = connectionsApi;
