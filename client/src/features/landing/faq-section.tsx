import { ChevronDown } from 'lucide-react';
import { landingSections } from '@/lib/paths';
import { SectionHeading } from './section-heading';

const QUESTIONS = [
  {
    question: 'Is Clipshift free?',
    answer:
      'Yes. Clipshift is free during the beta. If we introduce paid plans later, we will tell you well in advance and you can decide then whether to continue.',
  },
  {
    question: 'Which platforms are supported?',
    answer:
      'Clips come from Twitch, and finished videos are posted to TikTok and to YouTube as Shorts, through each platform’s official API. You can also download any converted clip as an MP4 and share it wherever you like.',
  },
  {
    question: 'Do I need technical skills?',
    answer:
      'No. You add a streamer by name, choose your preferences and press download. There is nothing to install and no video editing to learn.',
  },
  {
    question: 'Can I customise the videos?',
    answer:
      'Yes. Per streamer you choose the clip limit, vertical or horizontal format, language, subtitles and schedule; per clip you write or pick the description before posting.',
  },
] as const;

export function FaqSection() {
  return (
    <section id={landingSections.faq} className="border-t bg-muted/40 px-4 py-20 sm:px-6">
      <div className="mx-auto max-w-3xl">
        <SectionHeading eyebrow="FAQ" title="Frequently asked questions" description="Anything else? Write to us — the address is below." />
        <div className="mt-10 divide-y rounded-xl border bg-background">
          {QUESTIONS.map(({ question, answer }) => (
            <details key={question} className="group px-5 py-4 [&_summary::-webkit-details-marker]:hidden">
              <summary className="flex cursor-pointer items-center justify-between gap-4 font-medium">
                {question}
                <ChevronDown className="size-4 shrink-0 text-muted-foreground transition-transform group-open:rotate-180" aria-hidden="true" />
              </summary>
              <p className="mt-3 text-sm leading-relaxed text-muted-foreground">{answer}</p>
            </details>
          ))}
        </div>
      </div>
    </section>
  );
}
