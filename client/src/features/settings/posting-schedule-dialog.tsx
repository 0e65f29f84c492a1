import { useId, useMemo, useState, type FormEvent } from 'react';
import { LoaderCircle, Plus, X } from 'lucide-react';
import { DAILY_CAP_MAX, MIN_GAP_MAX_MINUTES, normalizeSlots, WEEKDAY_NAMES, type PostingSchedule, type PostingSlot, type ConnectedAccount } from '@clipshift/shared';
import { formErrorMessage } from '@/api/errors';
import { queueMessages, useSaveSchedule, useSchedule } from '@/api/queue';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { browserTimeZone, knownTimeZones } from '@/lib/queue-time';

/** Monday first on screen, as most weeks are read; `day` stays the contract's (0 = Sunday). */
const DAY_ORDER = [1, 2, 3, 4, 5, 6, 0] as const;

function DayRow({ day, times, onAdd, onRemove }: { day: number; times: string[]; onAdd: (time: string) => void; onRemove: (time: string) => void }) {
  const name = WEEKDAY_NAMES[day]!;
  const [draft, setDraft] = useState('');
  const add = () => {
    if (!draft) return;
    onAdd(draft);
    setDraft('');
  };
  return (
    <li className="grid gap-2 py-2 sm:grid-cols-[6rem_1fr] sm:items-start" aria-label={name} data-testid={`slot-day-${day}`}>
      <span className="pt-1.5 text-sm font-medium">{name}</span>
      <div className="flex flex-wrap items-center gap-1.5">
        {times.map((time) => (
          <span key={time} className="inline-flex items-center gap-1 rounded-md border bg-muted px-2 py-1 font-mono text-xs" data-testid="slot-time">
            {time}
            <button type="button" className="rounded-sm opacity-70 hover:opacity-100 focus-visible:ring-2 focus-visible:ring-ring/50 focus-visible:outline-none" aria-label={`Remove ${name} ${time}`} onClick={() => onRemove(time)}>
              <X className="size-3" aria-hidden="true" />
            </button>
          </span>
        ))}
        <span className="inline-flex items-center gap-1">
          <Input
            type="time"
            className="h-8 w-28"
            aria-label={`New time on ${name}`}
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                add();
              }
            }}
          />
          <Button type="button" variant="outline" size="sm" className="h-8" aria-label={`Add time on ${name}`} disabled={!draft} onClick={add}>
            <Plus aria-hidden="true" />
          </Button>
        </span>
      </div>
    </li>
  );
}

function ScheduleForm({ account, saved, onDone }: { account: Pick<ConnectedAccount, "id" | "display_name">; saved: PostingSchedule; onDone: () => void }) {
  const ids = { zone: useId(), zones: useId(), cap: useId(), gap: useId(), hint: useId() };
  // A schedule never saved starts in this browser's zone: the one its user most likely means.
  const [timezone, setTimezone] = useState(saved.updated_at === null ? browserTimeZone() : saved.timezone);
  const [slots, setSlots] = useState<PostingSlot[]>(saved.slots);
  const [dailyCap, setDailyCap] = useState(saved.daily_cap === null ? '' : String(saved.daily_cap));
  const [minGap, setMinGap] = useState(String(saved.min_gap_minutes));
  const zones = useMemo(knownTimeZones, []);
  const save = useSaveSchedule(onDone);

  const timesOf = (day: number) => slots.filter((slot) => slot.day === day).map((slot) => slot.time);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({
      id: account.id,
      timezone: timezone.trim(),
      slots,
      daily_cap: dailyCap.trim() === '' ? null : Number(dailyCap),
      min_gap_minutes: minGap.trim() === '' ? 0 : Number(minGap),
    });
  };

  return (
    <form onSubmit={submit} className="grid gap-4" noValidate>
      <DialogHeader>
        <DialogTitle>Posting schedule: {account.display_name}</DialogTitle>
        <DialogDescription id={ids.hint}>
          Automatic and approved posts take the next free time below. Without times, posts go out at once. Posts you make yourself go at once.
        </DialogDescription>
      </DialogHeader>
      <div className="grid gap-2">
        <Label htmlFor={ids.zone}>Time zone</Label>
        <Input id={ids.zone} list={ids.zones} autoComplete="off" spellCheck={false} value={timezone} onChange={(event) => setTimezone(event.target.value)} />
        <datalist id={ids.zones}>
          {zones.map((zone) => (
            <option key={zone} value={zone} />
          ))}
        </datalist>
      </div>
      <fieldset className="grid gap-1">
        <legend className="mb-1 text-sm font-medium">Weekly posting times</legend>
        <ul className="divide-y rounded-lg border px-3" aria-label="Weekly posting times">
          {DAY_ORDER.map((day) => (
            <DayRow
              key={day}
              day={day}
              times={timesOf(day)}
              onAdd={(time) => setSlots((list) => normalizeSlots([...list, { day, time }]))}
              onRemove={(time) => setSlots((list) => list.filter((slot) => !(slot.day === day && slot.time === time)))}
            />
          ))}
        </ul>
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="grid gap-2">
          <Label htmlFor={ids.cap}>Posts per day at most</Label>
          <Input id={ids.cap} type="number" inputMode="numeric" min={1} max={DAILY_CAP_MAX} placeholder="No limit" value={dailyCap} onChange={(event) => setDailyCap(event.target.value)} />
        </div>
        <div className="grid gap-2">
          <Label htmlFor={ids.gap}>Minutes between posts at least</Label>
          <Input id={ids.gap} type="number" inputMode="numeric" min={0} max={MIN_GAP_MAX_MINUTES} value={minGap} onChange={(event) => setMinGap(event.target.value)} />
        </div>
      </div>
      {save.isError && (
        <Alert variant="destructive" role="alert">
          {formErrorMessage(save.error, queueMessages.saveFailed)}
        </Alert>
      )}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending && <LoaderCircle className="animate-spin" aria-hidden="true" />}
          Save schedule
        </Button>
      </DialogFooter>
    </form>
  );
}

function ScheduleLoader({ account, onDone }: { account: Pick<ConnectedAccount, "id" | "display_name">; onDone: () => void }) {
  const schedule = useSchedule(account.id);
  if (schedule.isPending) {
    return (
      <>
        <DialogHeader>
          <DialogTitle>Posting schedule: {account.display_name}</DialogTitle>
          <DialogDescription>Loading…</DialogDescription>
        </DialogHeader>
        <Skeleton className="h-64 w-full" />
      </>
    );
  }
  if (schedule.isError) {
    return (
      <>
        <DialogHeader>
          <DialogTitle>Posting schedule: {account.display_name}</DialogTitle>
          <DialogDescription>{formErrorMessage(schedule.error, queueMessages.scheduleLoadFailed)}</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={() => void schedule.refetch()}>
            Try again
          </Button>
        </DialogFooter>
      </>
    );
  }
  return <ScheduleForm account={account} saved={schedule.data} onDone={onDone} />;
}

/** An account's weekly posting slots, daily cap and minimum gap. */
export function PostingScheduleDialog({ account, onClose }: { account: Pick<ConnectedAccount, "id" | "display_name"> | null; onClose: () => void }) {
  return (
    <Dialog open={account !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-2xl">{account && <ScheduleLoader account={account} onDone={onClose} />}</DialogContent>
    </Dialog>
  );
}
