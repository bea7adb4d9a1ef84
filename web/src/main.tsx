import { ChakraProvider } from '@chakra-ui/react';
import { ThemeProvider } from 'next-themes';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, startupCode } from './App';
import { StorageKeys } from './app/storage';
import { system } from './app/theme';
import { ToasterHost } from './app/notify';
import { initI18n } from './app/i18n';
import { mark } from './app/perf';
import { installDialogFocusReturn } from './app/dialog-focus';

mark('main');

await initI18n();
mark('i18n');
// a signed-in load renders once the layout's code (and the ticket manager's, on /tickets) is here: no spinners first
await startupCode;

// a dialog closed gives the focus back to what opened it
installDialogFocusReturn();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <ChakraProvider value={system}>
      <ThemeProvider attribute="class" storageKey={StorageKeys.preferredTheme} defaultTheme="light" enableSystem disableTransitionOnChange>
        <App />
        <ToasterHost />
      </ThemeProvider>
    </ChakraProvider>
  </StrictMode>,
);
