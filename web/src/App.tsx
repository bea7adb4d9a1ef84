import { lazy, Suspense } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router-dom';
import { FullPageSpinner } from './app/FullPageSpinner';
import { PublicOnly, RequireAuth } from './app/guards';
import { preloadable } from './app/preloadable';
import { getToken } from './app/storage';

// Every screen is its own chunk: the login page loads only what it needs (not even the Redux store,
// which comes with the signed-in layout, or with the first sign-in attempt).
const LoginPage = lazy(() => import('./features/auth/LoginPage'));
const LegalPage = lazy(() => import('./features/auth/LegalPage'));
const SignupPage = lazy(() => import('./features/auth/SignupPage'));
const ForgetPasswordPage = lazy(() => import('./features/auth/ForgetPasswordPage'));
const AppLayout = preloadable(() => import('./features/layout/AppLayout'));
const TicketsPage = preloadable(() => import('./features/tickets-manager/TicketsPage'));
const ConnectionsPage = lazy(() => import('./features/connections/ConnectionsPage'));
const ContactsPage = lazy(() => import('./features/contacts/ContactsPage'));
const QuickMessagesPage = lazy(() => import('./features/quick-messages/QuickMessagesPage'));
const SchedulesPage = lazy(() => import('./features/schedules/SchedulesPage'));
const HomePage = lazy(() => import('./features/dashboard/HomePage'));
const UsersPage = lazy(() => import('./features/users/UsersPage'));
const QueuesPage = lazy(() => import('./features/queues/QueuesPage'));
const TodoListPage = lazy(() => import('./features/todo/TodoListPage'));
const MessagesApiPage = lazy(() => import('./features/messages-api/MessagesApiPage'));
const WebhooksPage = lazy(() => import('./features/webhooks/WebhooksPage'));
const SettingsPage = lazy(() => import('./features/settings/SettingsPage'));
const PromptsPage = lazy(() => import('./features/prompts/PromptsPage'));
const QueueIntegrationsPage = lazy(() => import('./features/queue-integrations/QueueIntegrationsPage'));
const HelpsPage = lazy(() => import('./features/helps/HelpsPage'));
const AnnouncementsPage = lazy(() => import('./features/announcements/AnnouncementsPage'));
const TagsPage = lazy(() => import('./features/tags/TagsPage'));
const FilesPage = lazy(() => import('./features/files/FilesPage'));
const KanbanPage = lazy(() => import('./features/kanban/KanbanPage'));
const ChatsPage = lazy(() => import('./features/team-chat/ChatsPage'));
const ContactListsPage = lazy(() => import('./features/contact-lists/ContactListsPage'));
const ContactListItemsPage = lazy(() => import('./features/contact-lists/ContactListItemsPage'));
const CampaignsPage = lazy(() => import('./features/campaigns/CampaignsPage'));
const CampaignSettingsPage = lazy(() => import('./features/campaigns/CampaignSettingsPage'));
const CampaignReportPage = lazy(() => import('./features/campaigns/CampaignReportPage'));
const InvoicesPage = lazy(() => import('./features/billing/InvoicesPage'));
const SubscriptionPage = lazy(() => import('./features/billing/SubscriptionPage'));

/**
 * Signed in: the layout and the ticket manager load side by side rather than one after the other, and the first
 * render waits for them (main.tsx), so that neither shows a spinner first (see app/preloadable.ts).
 */
export const startupCode: Promise<unknown> = getToken()
  ? Promise.allSettled([AppLayout.preload(), ...(window.location.pathname.startsWith('/tickets') ? [TicketsPage.preload()] : [])])
  : Promise.resolve();

export function App() {
  return (
    <BrowserRouter>
      <Suspense fallback={<FullPageSpinner />}>
        <Routes>
          <Route
            path="/login"
            element={
              <PublicOnly>
                <LoginPage />
              </PublicOnly>
            }
          />
          <Route
            path="/signup"
            element={
              <PublicOnly>
                <SignupPage />
              </PublicOnly>
            }
          />
          <Route
            path="/forgetpsw"
            element={
              <PublicOnly>
                <ForgetPasswordPage />
              </PublicOnly>
            }
          />
          <Route path="/term" element={<LegalPage kind="term" />} />
          <Route path="/privacy" element={<LegalPage kind="privacy" />} />
          <Route
            element={
              <RequireAuth>
                <AppLayout />
              </RequireAuth>
            }
          >
            {/* the dashboard for admins; everyone else goes on to the ticket manager */}
            <Route index element={<HomePage />} />
            <Route path="/tickets/:ticketId?" element={<TicketsPage />} />
            <Route path="/connections" element={<ConnectionsPage />} />
            <Route path="/contacts" element={<ContactsPage />} />
            <Route path="/quick-messages" element={<QuickMessagesPage />} />
            <Route path="/schedules" element={<SchedulesPage />} />
            <Route path="/users" element={<UsersPage />} />
            <Route path="/queues" element={<QueuesPage />} />
            <Route path="/todolist" element={<TodoListPage />} />
            <Route path="/prompts" element={<PromptsPage />} />
            <Route path="/queue-integration" element={<QueueIntegrationsPage />} />
            <Route path="/helps" element={<HelpsPage />} />
            <Route path="/announcements" element={<AnnouncementsPage />} />
            <Route path="/tags" element={<TagsPage />} />
            <Route path="/files" element={<FilesPage />} />
            <Route path="/kanban" element={<KanbanPage />} />
            <Route path="/chats/:id?" element={<ChatsPage />} />
            <Route path="/messages-api" element={<MessagesApiPage />} />
            <Route path="/webhooks" element={<WebhooksPage />} />
            <Route path="/settings" element={<SettingsPage />} />
            <Route path="/financeiro" element={<InvoicesPage />} />
            <Route path="/subscription" element={<SubscriptionPage />} />
            {/* the campaign area (the cshow rule: each page checks it) */}
            <Route path="/contact-lists" element={<ContactListsPage />} />
            <Route path="/contact-lists/:contactListId/contacts" element={<ContactListItemsPage />} />
            <Route path="/campaigns" element={<CampaignsPage />} />
            <Route path="/campaigns-config" element={<CampaignSettingsPage />} />
            <Route path="/campaign/:campaignId/report" element={<CampaignReportPage />} />
            <Route path="*" element={<Navigate to="/tickets" replace />} />
          </Route>
        </Routes>
      </Suspense>
    </BrowserRouter>
  );
}
