import { Circle, CircleCheck, Rocket } from 'lucide-react';
import { Link, type To } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Progress } from '@/components/ui/progress';
import { addStreamerPath, paths } from '@/lib/paths';
import { cn } from '@/lib/utils';
import { FIRST_RUN_STEPS, type FirstRunStep } from './first-run';
import type { FirstRun } from './use-first-run';

/** Where Quick Download sits on the dashboard, for the Download clips step to scroll to. */
export const QUICK_DOWNLOAD_ID = 'quick-download';

interface StepView {
  title: string;
  description: string;
  action: { label: string; to: To };
}

const STEP_VIEWS: Record<FirstRunStep, StepView> = {
  streamer: {
    title: 'Add a streamer',
    description: 'The Twitch channel whose clips you want as shorts.',
    action: { label: 'Add Streamer', to: addStreamerPath() },
  },
  clips: {
    title: 'Download clips',
    description: 'Its most-viewed clips, made vertical for TikTok, YouTube Shorts and Reels.',
    action: { label: 'Quick Download', to: { hash: QUICK_DOWNLOAD_ID } },
  },
  account: {
    title: 'Connect an account',
    description: 'The TikTok, YouTube, Instagram or Facebook account your shorts are posted to.',
    action: { label: 'Connect an account', to: `${paths.app.settings}#settings-accounts-title` },
  },
  post: {
    title: 'Post a clip',
    description: 'Pick a clip, write its description and send it to your accounts.',
    action: { label: 'Open Clips', to: paths.app.clips },
  },
};

function Step({ step, done }: { step: FirstRunStep; done: boolean }) {
  const view = STEP_VIEWS[step];
  const Icon = done ? CircleCheck : Circle;
  return (
    <li className="flex flex-wrap items-center gap-x-3 gap-y-2 py-3" data-step={step} data-done={done}>
      <Icon className={cn('size-5 shrink-0', done ? 'text-success-icon' : 'text-muted-foreground')} aria-hidden="true" />
      {/* At least 14rem of text: on a phone the action moves under it rather than squeezing it. */}
      <div className="min-w-0 flex-1 basis-56">
        <p className={cn('font-medium', done && 'text-muted-foreground line-through')}>
          {view.title}
          <span className="sr-only">{done ? ' (done)' : ' (to do)'}</span>
        </p>
        <p className="text-sm text-muted-foreground">{view.description}</p>
      </div>
      {!done && (
        <Button asChild variant={step === 'streamer' ? 'brand' : 'outline'} size="sm" className="ml-8 sm:ml-0">
          <Link to={view.action.to}>{view.action.label}</Link>
        </Button>
      )}
    </li>
  );
}

/** A new user's four steps to a first post, ticked by what the server holds; it can be put away. */
export function FirstRunChecklist({ done, dismiss }: FirstRun) {
  const count = done.size;
  const total = FIRST_RUN_STEPS.length;
  return (
    <Card role="region" aria-labelledby="first-run-title">
      <CardHeader className="gap-3 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
        <div className="space-y-1.5">
          <CardTitle id="first-run-title" className="flex items-center gap-2">
            <Rocket className="size-4 text-brand-text" aria-hidden="true" /> Get started
          </CardTitle>
          <CardDescription>
            <span data-testid="first-run-count">
              {count}/{total}
            </span>{' '}
            done: from a Twitch channel to your first post.
          </CardDescription>
        </div>
        <CardAction>
          <Button variant="ghost" size="sm" onClick={dismiss}>
            Dismiss
          </Button>
        </CardAction>
      </CardHeader>
      <CardContent className="space-y-2">
        <Progress value={(count / total) * 100} aria-label="Steps done" />
        <ol className="divide-y" aria-label="First steps">
          {FIRST_RUN_STEPS.map((step) => (
            <Step key={step} step={step} done={done.has(step)} />
          ))}
        </ol>
      </CardContent>
    </Card>
  );
}
