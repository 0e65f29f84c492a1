import { ArrowRight, CalendarClock, Play, RectangleVertical, Sparkles } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { landingSections } from '@/lib/paths';

/** A 16:9 clip turning into a 9:16 short: what the product does, at a glance. */
function ConversionIllustration() {
  return (
    <div aria-hidden="true" className="relative mx-auto flex w-full max-w-md items-center justify-center gap-4 sm:gap-6">
      <div className="relative aspect-video w-40 overflow-hidden rounded-lg border bg-gradient-to-br from-slate-800 to-slate-950 shadow-lg sm:w-64">
        <div className="absolute inset-0 flex items-center justify-center">
          <div className="flex size-10 items-center justify-center rounded-full bg-white/15 backdrop-blur">
            <Play className="size-5 fill-white text-white" />
          </div>
        </div>
        <span className="absolute top-2 left-2 rounded bg-black/50 px-1.5 py-0.5 text-[10px] font-medium text-white">Twitch clip · 16:9</span>
      </div>
      <ArrowRight className="size-6 shrink-0 text-brand-text" />
      <div className="relative aspect-[9/16] w-28 overflow-hidden rounded-2xl border-4 border-slate-900 bg-slate-900 shadow-xl sm:w-40">
        <div className="absolute inset-0 bg-gradient-to-br from-violet-500/60 to-fuchsia-500/40 blur-md" />
        <div className="absolute inset-x-0 top-1/2 aspect-video -translate-y-1/2 bg-gradient-to-br from-slate-700 to-slate-900" />
        <div className="absolute inset-x-2 bottom-10 rounded bg-black/60 px-1 py-0.5 text-center text-[9px] font-bold text-yellow-300">
          NO WAY HE HIT THAT
        </div>
        <span className="absolute top-2 left-1/2 -translate-x-1/2 rounded bg-black/50 px-1.5 py-0.5 text-[9px] font-medium text-white">9:16</span>
      </div>
    </div>
  );
}

const HIGHLIGHTS = [
  { icon: CalendarClock, text: 'Scheduled downloads' },
  { icon: RectangleVertical, text: 'Vertical or horizontal formats' },
  { icon: Sparkles, text: 'Clip limits per streamer' },
] as const;

export function HeroSection() {
  return (
    <section className="relative overflow-hidden border-b">
      <div className="pointer-events-none absolute inset-0 -z-10 bg-[radial-gradient(ellipse_at_top,var(--color-brand-soft),transparent_60%)]" />
      <div className="mx-auto grid max-w-6xl items-center gap-12 px-4 py-16 sm:px-6 md:py-24 lg:grid-cols-2">
        <div className="space-y-6 text-center lg:text-left">
          <span className="inline-flex items-center gap-2 rounded-full border bg-background px-3 py-1 text-xs font-medium text-muted-foreground shadow-xs">
            <span className="size-1.5 rounded-full bg-brand" />
            Limited beta · early access by request
          </span>
          <h1 className="text-4xl font-semibold tracking-tight text-balance sm:text-5xl">
            Turn Twitch clips into{' '}
            <span className="text-brand-text">
              <span className="whitespace-nowrap">ready-to-post</span> shorts
            </span>
          </h1>
          <p className="mx-auto max-w-xl text-lg text-pretty text-muted-foreground lg:mx-0">
            Clipshift downloads the best clips of the streamers you follow, converts them to vertical video with
            optional subtitles, and posts them to your TikTok accounts and YouTube channels — on demand or on a schedule.
          </p>
          <div className="flex flex-col justify-center gap-3 sm:flex-row lg:justify-start">
            <Button asChild size="lg" variant="brand">
              <a href={`#${landingSections.requestAccess}`}>Request Access</a>
            </Button>
            <Button asChild size="lg" variant="outline">
              <a href={`#${landingSections.features}`}>Learn More</a>
            </Button>
          </div>
          <ul className="flex flex-wrap justify-center gap-x-5 gap-y-2 text-sm text-muted-foreground lg:justify-start">
            {HIGHLIGHTS.map(({ icon: Icon, text }) => (
              <li key={text} className="flex items-center gap-1.5">
                <Icon className="size-4 text-brand-text" aria-hidden="true" />
                {text}
              </li>
            ))}
          </ul>
        </div>
        <ConversionIllustration />
      </div>
    </section>
  );
}
