import { CalendarClock, LayoutDashboard, Film, Inbox, MessageSquareText, ScrollText, Settings, Users, type LucideIcon } from 'lucide-react';
import { paths } from '@/lib/paths';

export interface NavItem {
  label: string;
  to: string;
  icon: LucideIcon;
  /** Dashboard is the /app index: only an exact match marks it current. */
  end?: boolean;
  /** A count shown beside the label (the clips waiting for review). */
  badge?: 'review';
}

/** The signed-in navigation (spec section 2), with System Logs reachable as "Logs". */
export const APP_NAV_ITEMS: readonly NavItem[] = [
  { label: 'Dashboard', to: paths.app.dashboard, icon: LayoutDashboard, end: true },
  { label: 'Streamers', to: paths.app.streamers, icon: Users },
  { label: 'Clips', to: paths.app.clips, icon: Film },
  { label: 'Review', to: paths.app.review, icon: Inbox, badge: 'review' },
  { label: 'Moments', to: paths.app.moments, icon: MessageSquareText },
  { label: 'Queue', to: paths.app.queue, icon: CalendarClock },
  { label: 'Logs', to: paths.app.logs, icon: ScrollText },
  { label: 'Settings', to: paths.app.settings, icon: Settings },
];
