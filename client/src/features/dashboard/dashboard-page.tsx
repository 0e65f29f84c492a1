import { Link } from 'react-router-dom';
import { Activity, Download, Plus, Users } from 'lucide-react';
import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { paths } from '@/lib/paths';

function ActiveDownloadsCard() {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Activity className="size-4 text-brand" aria-hidden="true" /> Active Downloads
        </CardTitle>
        <CardDescription>Progress of each streamer’s latest download run.</CardDescription>
      </CardHeader>
      <CardContent>
        <EmptyState
          icon={Download}
          title="No active downloads"
          description="When you start downloading clips for a streamer, its progress shows up here."
        />
      </CardContent>
    </Card>
  );
}

function QuickDownloadCard() {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Download className="size-4 text-brand" aria-hidden="true" /> Quick Download
        </CardTitle>
        <CardDescription>Download the newest clips of any streamer with one click.</CardDescription>
      </CardHeader>
      <CardContent>
        <EmptyState
          icon={Users}
          title="No streamers yet"
          description="Add the Twitch streamers whose clips you want to turn into shorts."
          action={
            <Button asChild variant="brand">
              <Link to={paths.app.streamers}>
                <Plus /> Add Streamers
              </Link>
            </Button>
          }
        />
      </CardContent>
    </Card>
  );
}

export function DashboardPage() {
  return (
    <>
      <PageHeader title="Dashboard" description="Your downloads at a glance." />
      <div className="grid gap-6 lg:grid-cols-2">
        <ActiveDownloadsCard />
        <QuickDownloadCard />
      </div>
    </>
  );
}
