import { CircleAlert } from 'lucide-react';
import { PlatformIcon } from '@/components/platform-icon';
import { Alert } from '@/components/ui/alert';
import type { PlatformProblems } from './preflight';

/** What a chosen platform would refuse about the video: posting waits until none is left. */
export function PreflightProblems({ problems }: { problems: readonly PlatformProblems[] }) {
  if (problems.length === 0) return null;
  return (
    <Alert variant="destructive" role="alert" data-testid="preflight-problems">
      <CircleAlert aria-hidden="true" />
      <div className="flex-1 space-y-2">
        <p className="font-medium">This clip cannot be posted as it is</p>
        <ul className="space-y-1.5">
          {problems.flatMap((entry) =>
            entry.problems.map((problem) => (
              <li key={`${entry.platform}-${problem}`} className="flex items-start gap-2 text-sm" data-testid="preflight-problem" data-platform={entry.platform}>
                <PlatformIcon platform={entry.platform} className="mt-0.5" />
                <span>{problem}</span>
              </li>
            )),
          )}
        </ul>
        <p className="text-xs">Untick that platform's accounts, or change the description or the clip (in the studio).</p>
      </div>
    </Alert>
  );
}
