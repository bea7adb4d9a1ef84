import type { CampaignDto, CampaignReport, CampaignSettingDto, CampaignSettingsBody, FileListsPage } from '@wa/contracts';
import { api } from '../../app/api';
import { apiUrl } from '../../app/config';
import { getToken } from '../../app/storage';

/** `GET /campaigns`: a page of the company's campaigns. */
export interface CampaignsPage {
  records: CampaignDto[];
  hasMore: boolean;
  count?: number;
}

/** What the dialog sends on POST /campaigns and PUT /campaigns/{id} (spec 02 §3 "Campaign"). */
export type CampaignRequest = Pick<
  CampaignDto,
  | 'name'
  | 'message1'
  | 'message2'
  | 'message3'
  | 'message4'
  | 'message5'
  | 'confirmationMessage1'
  | 'confirmationMessage2'
  | 'confirmationMessage3'
  | 'confirmationMessage4'
  | 'confirmationMessage5'
  | 'confirmation'
  | 'scheduledAt'
  | 'whatsappId'
  | 'contactListId'
  | 'tagListId'
  | 'fileListId'
>;

const withCampaignTypes = api.enhanceEndpoints({ addTagTypes: ['Campaign', 'CampaignReport', 'CampaignSettings', 'CampaignLists'] });

/**
 * The campaigns (spec 02 §7 "Campaigns"): the list page after page, one campaign, save, delete, cancel and
 * restart, the attachment, the report, the settings, and the pickers the dialog reads (contact lists, file
 * lists). Live events (`company-<id>-campaign`) patch or reload them (campaigns.socket.ts).
 */
export const campaignsApi = withCampaignTypes.injectEndpoints({
  endpoints: (build) => ({
    listCampaigns: build.infiniteQuery<CampaignsPage, string, number>({
      infiniteQueryOptions: {
        initialPageParam: 1,
        getNextPageParam: (last, _all, lastParam) => (last.hasMore ? lastParam + 1 : undefined),
      },
      query: ({ queryArg, pageParam }) => ({ url: '/campaigns', params: { searchParam: queryArg || undefined, pageNumber: pageParam } }),
      providesTags: ['Campaign'],
    }),
    getCampaign: build.query<CampaignDto, number>({
      query: (id) => `/campaigns/${id}`,
      providesTags: (_r, _e, id) => [{ type: 'Campaign', id }],
    }),
    /** a cancelled campaign is sent its messages only */
    saveCampaign: build.mutation<CampaignDto, { id?: number } & Partial<CampaignRequest>>({
      query: ({ id, ...body }) => (id ? { url: `/campaigns/${id}`, method: 'PUT', body } : { url: '/campaigns', method: 'POST', body }),
    }),
    deleteCampaign: build.mutation<unknown, number>({
      query: (id) => ({ url: `/campaigns/${id}`, method: 'DELETE' }),
      invalidatesTags: (_r, error) => (error ? [] : ['Campaign']),
    }),
    /** EM_ANDAMENTO → CANCELADA (409 ERR_CAMPAIGN_NOT_RUNNING otherwise) */
    cancelCampaign: build.mutation<unknown, number>({
      query: (id) => ({ url: `/campaigns/${id}/cancel`, method: 'POST' }),
      invalidatesTags: (_r, error, id) => (error ? [] : ['Campaign', { type: 'CampaignReport', id }]),
    }),
    /** CANCELADA → EM_ANDAMENTO (409 ERR_CAMPAIGN_NOT_CANCELLED otherwise) */
    restartCampaign: build.mutation<unknown, number>({
      query: (id) => ({ url: `/campaigns/${id}/restart`, method: 'POST' }),
      invalidatesTags: (_r, error, id) => (error ? [] : ['Campaign', { type: 'CampaignReport', id }]),
    }),
    uploadCampaignMedia: build.mutation<CampaignDto, { id: number; file: File }>({
      query: ({ id, file }) => {
        const form = new FormData();
        form.append('file', file, file.name);
        return { url: `/campaigns/${id}/media-upload`, method: 'POST', body: form };
      },
    }),
    deleteCampaignMedia: build.mutation<unknown, number>({
      query: (id) => ({ url: `/campaigns/${id}/media-upload`, method: 'DELETE' }),
    }),
    campaignReport: build.query<CampaignReport, number>({
      query: (id) => `/campaigns/${id}/report`,
      providesTags: (_r, _e, id) => [{ type: 'CampaignReport', id }],
    }),
    campaignSettings: build.query<CampaignSettingDto[], void>({
      query: () => '/campaign-settings',
      providesTags: ['CampaignSettings'],
    }),
    saveCampaignSettings: build.mutation<unknown, CampaignSettingsBody>({
      query: (body) => ({ url: '/campaign-settings', method: 'POST', body }),
      invalidatesTags: (_r, error) => (error ? [] : ['CampaignSettings']),
    }),
    /** GET /contact-lists/list: every list of the company, for the dialog's picker */
    contactListOptions: build.query<Array<{ id: number; name: string }>, void>({
      query: () => '/contact-lists/list',
      providesTags: ['CampaignLists'],
    }),
    /** GET /files/: the file lists the campaign may send after its message (the first page, by name) */
    fileListOptions: build.query<Array<{ id: number; name: string }>, void>({
      query: () => '/files/',
      transformResponse: (page: FileListsPage | undefined) => page?.files ?? [],
    }),
  }),
});

export const {
  useListCampaignsInfiniteQuery,
  useGetCampaignQuery,
  useSaveCampaignMutation,
  useDeleteCampaignMutation,
  useCancelCampaignMutation,
  useRestartCampaignMutation,
  useUploadCampaignMediaMutation,
  useDeleteCampaignMediaMutation,
  useCampaignReportQuery,
  useCampaignSettingsQuery,
  useSaveCampaignSettingsMutation,
  useContactListOptionsQuery,
  useFileListOptionsQuery,
} = campaignsApi;

/** Reloads the campaign lists (after a save, or a live create or delete). */
export const refreshCampaigns = () => campaignsApi.util.invalidateTags(['Campaign']);
/** Reloads the dialog's contact-list picker (a list was added, renamed or deleted). */
export const refreshContactListOptions = () => campaignsApi.util.invalidateTags(['CampaignLists']);

/**
 * Downloads an API file with the session's token (the example spreadsheet, a report's CSV) and saves it
 * under `fileName`. Throws the server's error body as RTK Query errors carry it.
 */
export async function downloadFile(path: string, fileName: string): Promise<void> {
  const res = await fetch(`${apiUrl()}${path}`, { headers: { authorization: `Bearer ${getToken() ?? ''}` }, credentials: 'include' });
  if (!res.ok) throw { status: res.status, data: await res.json().catch(() => undefined) };
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
