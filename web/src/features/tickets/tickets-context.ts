import { createContext, useContext } from 'react';

export type TicketsTab = 'open' | 'pending' | 'closed' | 'search';

export interface TicketsView {
  tab: TicketsTab;
  setTab(tab: TicketsTab): void;
}

export const TicketsViewContext = createContext<TicketsView>({ tab: 'open', setTab: () => undefined });

export function useTicketsView(): TicketsView {
  return useContext(TicketsViewContext);
}
