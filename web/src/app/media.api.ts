import { api } from './api';

/** Stored files (a message's media, a schedule's picture, an announcement's image, a file list's option). */
export const mediaApi = api.injectEndpoints({
  endpoints: (build) => ({
    /**
     * A stored file, fetched with the session's token (never a public URL) and kept as an object URL
     * while some message shows it; released when no message has shown it for a while.
     */
    mediaFile: build.query<string, string>({
      query: (mediaUrl) => ({
        url: mediaUrl,
        responseHandler: async (res: Response) => (res.ok ? URL.createObjectURL(await res.blob()) : res.text()),
      }),
      keepUnusedDataFor: 300,
      // the hook never refetches a file (no refetch on reconnect or focus), so an entry holds one URL
      async onCacheEntryAdded(_arg, { cacheDataLoaded, cacheEntryRemoved }) {
        try {
          const { data } = await cacheDataLoaded;
          await cacheEntryRemoved;
          URL.revokeObjectURL(data);
        } catch {
          /* never loaded */
        }
      },
    }),
  }),
});

export const { useMediaFileQuery } = mediaApi;
