import { ChakraProvider } from '@chakra-ui/react';
import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { system } from '../app/theme';
import { makeStore, type AppStore } from '../app/store';

/** Renders with the app's providers (Chakra, a fresh store, a router at `route`). */
export function renderWithProviders(ui: ReactElement, opts: { store?: AppStore; route?: string } = {}): RenderResult & { store: AppStore } {
  const store = opts.store ?? makeStore();
  const result = render(
    <Provider store={store}>
      <ChakraProvider value={system}>
        <MemoryRouter initialEntries={[opts.route ?? '/']}>{ui}</MemoryRouter>
      </ChakraProvider>
    </Provider>,
  );
  return { ...result, store };
}
