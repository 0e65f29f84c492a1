import { Clock, Repeat, ShieldCheck, TrendingUp, type LucideIcon } from 'lucide-react';
import { SectionHeading } from './section-heading';

interface Benefit {
  icon: LucideIcon;
  title: string;
  description: string;
}

const BENEFITS: readonly Benefit[] = [
  {
    icon: Clock,
    title: 'Hours back every week',
    description: 'No more downloading, cropping and re-uploading by hand. Clipshift does the repetitive part.',
  },
  {
    icon: Repeat,
    title: 'A steady posting rhythm',
    description: 'Scheduled downloads keep a queue of fresh clips ready, so your channels never go quiet.',
  },
  {
    icon: TrendingUp,
    title: 'Built for short-form reach',
    description: 'Vertical framing and readable subtitles make clips work where people scroll with the sound off.',
  },
  {
    icon: ShieldCheck,
    title: 'Your accounts stay yours',
    description: 'TikTok and YouTube are connected through their official logins. Tokens are encrypted, and you can disconnect at any time.',
  },
];

export function BenefitsSection() {
  return (
    <section className="px-4 py-20 sm:px-6">
      <div className="mx-auto max-w-6xl">
        <SectionHeading
          eyebrow="Benefits"
          title="Why creators use Clipshift"
          description="Spend your time on the content, not on the conversion."
        />
        <div className="mt-12 grid gap-x-10 gap-y-8 sm:grid-cols-2">
          {BENEFITS.map(({ icon: Icon, title, description }) => (
            <div key={title} className="flex gap-4">
              <div className="flex size-10 shrink-0 items-center justify-center rounded-lg border bg-background shadow-xs">
                <Icon className="size-5 text-brand-text" aria-hidden="true" />
              </div>
              <div>
                <h3 className="font-semibold">{title}</h3>
                <p className="mt-1 text-sm leading-relaxed text-muted-foreground">{description}</p>
              </div>
            </div>
          ))}
        </div>
      </div>
    </section>
  );
}
