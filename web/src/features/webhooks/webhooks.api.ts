import type {
  WebhookDeliveriesPage,
  WebhookDeliveriesQuery,
  WebhookDeliveryDto,
  WebhookSecretDto,
  WebhookSettingsDto,
  WebhookSettingsRequest,
  WebhookSettingsSavedDto,
} from '@wa/contracts';
import { api } from '../../app/api';

/** The log's filter: every delivery, or only those of one status. */
export type DeliveryFilter = NonNullable<WebhookDeliveriesQuery['status']> | '';

/** The filters whose cached logs a replay lands in (a new delivery is pending). */
const LOGS_OF_A_NEW_DELIVERY: DeliveryFilter[] = ['', 'pending'];

/**
 * The company's outbound webhook (admins): `GET|PUT /webhook-settings`, `POST /webhook-settings/secret` (a new
 * secret, shown once), `GET /webhook-deliveries?status&pageNumber` page after page (newest first) and
 * `POST /webhook-deliveries/{id}/replay`. The answers update the cache (no tags): a save becomes the settings,
 * a replay goes on top of the log.
 */
export const webhooksApi = api.injectEndpoints({
  endpoints: (build) => ({
    webhookSettings: build.query<WebhookSettingsDto, void>({
      query: () => '/webhook-settings',
    }),
    /** the answer's `secret` (only on a first save without one) is for the caller to show once: not kept in the cache */
    saveWebhookSettings: build.mutation<WebhookSettingsSavedDto, WebhookSettingsRequest>({
      query: (body) => ({ url: '/webhook-settings', method: 'PUT', body }),
      async onQueryStarted(_body, { dispatch, queryFulfilled }) {
        const saved = await queryFulfilled.then((r) => r.data).catch(() => undefined);
        if (!saved) return;
        const { secret: _shownOnce, ...settings } = saved;
        dispatch(webhooksApi.util.upsertQueryData('webhookSettings', undefined, settings));
      },
    }),
    newWebhookSecret: build.mutation<WebhookSecretDto, void>({
      query: () => ({ url: '/webhook-settings/secret', method: 'POST' }),
    }),
    webhookDeliveries: build.infiniteQuery<WebhookDeliveriesPage, DeliveryFilter, number>({
      infiniteQueryOptions: {
        initialPageParam: 1,
        getNextPageParam: (last, _all, lastParam) => (last.hasMore ? lastParam + 1 : undefined),
      },
      query: ({ queryArg, pageParam }) => ({
        url: '/webhook-deliveries',
        params: { status: queryArg || undefined, pageNumber: pageParam },
      }),
    }),
    /** a new delivery of the same event and payload: on top of the log at once */
    replayWebhookDelivery: build.mutation<WebhookDeliveryDto, string>({
      query: (id) => ({ url: `/webhook-deliveries/${id}/replay`, method: 'POST' }),
      async onQueryStarted(_id, { dispatch, queryFulfilled }) {
        const created = await queryFulfilled.then((r) => r.data).catch(() => undefined);
        if (!created) return;
        for (const filter of LOGS_OF_A_NEW_DELIVERY) {
          dispatch(
            webhooksApi.util.updateQueryData('webhookDeliveries', filter, (d) => {
              const first = d.pages[0];
              if (first && !d.pages.some((p) => p.deliveries.some((x) => x.id === created.id))) first.deliveries.unshift(created);
            }),
          );
        }
      },
    }),
  }),
});

export const {
  useWebhookSettingsQuery,
  useSaveWebhookSettingsMutation,
  useNewWebhookSecretMutation,
  useWebhookDeliveriesInfiniteQuery,
  useReplayWebhookDeliveryMutation,
} = webhooksApi;
