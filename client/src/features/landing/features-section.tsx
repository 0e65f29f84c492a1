import { CalendarClock, SlidersHorizontal, WandSparkles, type LucideIcon } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { landingSections } from '@/lib/paths';
import { SectionHeading } from './section-heading';

interface Feature {
  icon: LucideIcon;
  title: string;
  description: string;
}

const FEATURES: readonly Feature[] = [
  {
    icon: WandSparkles,
    title: 'Automatic conversion',
    description:
      'Every clip is reframed for phones: vertical 9:16 with a blurred background, or kept horizontal if you prefer. Add burned-in subtitles with one click.',
  },
  {
    icon: CalendarClock,
    title: 'Scheduled downloads',
    description:
      'Set a schedule per streamer — every few minutes, hours or days — and Clipshift fetches their newest top clips for you while you sleep.',
  },
  {
    icon: SlidersHorizontal,
    title: 'Complete control',
    description:
      'Choose clip limits, formats, languages and descriptions. Review every clip before it goes out, or let auto publish handle it.',
  },
];

export function FeaturesSection() {
  return (
    <section id={landingSections.features} className="px-4 py-20 sm:px-6">
      <div className="mx-auto max-w-6xl">
        <SectionHeading
          eyebrow="Features"
          title="Everything you need to repurpose clips"
          description="From the moment a clip is made on Twitch to the moment it lands on TikTok or YouTube."
        />
        <div className="mt-12 grid gap-6 md:grid-cols-3">
          {FEATURES.map(({ icon: Icon, title, description }) => (
            <Card key={title} className="transition-shadow hover:shadow-md">
              <CardHeader>
                <div className="mb-2 flex size-10 items-center justify-center rounded-lg bg-brand-soft">
                  <Icon className="size-5 text-brand-text" aria-hidden="true" />
                </div>
                <CardTitle>{title}</CardTitle>
              </CardHeader>
              <CardContent>
                <CardDescription className="leading-relaxed">{description}</CardDescription>
              </CardContent>
            </Card>
          ))}
        </div>
      </div>
    </section>
  );
}
