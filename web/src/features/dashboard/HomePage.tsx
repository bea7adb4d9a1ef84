import { lazy } from 'react';
import { Navigate } from 'react-router-dom';
import { selectSupervises } from '../../app/session';
import { useAppSelector } from '../../app/store';

// the dashboard and its charts load only for those who see it
const DashboardPage = lazy(() => import('./DashboardPage'));

/** / (spec 01 §2): the dashboard for admins and supervisors; everyone else goes to the ticket manager. */
export default function HomePage() {
  const supervises = useAppSelector(selectSupervises);
  return supervises ? <DashboardPage /> : <Navigate to="/tickets" replace />;
}
