import { landingSections } from '@/lib/paths';
import { SectionHeading } from './section-heading';

const STEPS = [
  {
    title: 'Add streamers',
    description: 'Enter the Twitch channels you create clips for. Each streamer gets its own settings.',
  },
  {
    title: 'Set preferences',
    description: 'Pick a clip limit, vertical or horizontal format, language, subtitles and an optional schedule.',
  },
  {
    title: 'Start download',
    description: 'Download the top clips now, or let the schedule do it. Progress shows live on your dashboard.',
  },
  {
    title: 'Share',
    description: 'Write or pick a description and post to your linked TikTok accounts and YouTube channels through their official APIs.',
  },
] as const;

export function HowItWorksSection() {
  return (
    <section id={landingSections.howItWorks} className="border-y bg-muted/40 px-4 py-20 sm:px-6">
      <div className="mx-auto max-w-6xl">
        <SectionHeading
          eyebrow="How it works"
          title="Four steps from stream to short"
          description="Set it up once; Clipshift keeps the clips coming."
        />
        <ol className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {STEPS.map((step, index) => (
            <li key={step.title} className="relative rounded-xl border bg-background p-6 shadow-xs">
              <span className="flex size-9 items-center justify-center rounded-full bg-brand text-sm font-semibold text-brand-foreground">
                {index + 1}
              </span>
              <h3 className="mt-4 font-semibold">{step.title}</h3>
              <p className="mt-2 text-sm leading-relaxed text-muted-foreground">{step.description}</p>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
