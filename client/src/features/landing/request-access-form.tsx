import { useState, type FormEvent } from 'react';
import { CircleCheck, Mail } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { landingSections } from '@/lib/paths';
import { useFakeAccessRequest } from './use-fake-access-request';

const THANKS_MESSAGE = "Thanks for your interest! We'll be in touch soon.";

export function RequestAccessSection() {
  const [email, setEmail] = useState('');
  const { phase, submit } = useFakeAccessRequest();

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (phase === 'submitting') return;
    submit(() => setEmail(''));
  };

  return (
    <section id={landingSections.requestAccess} className="px-4 py-20 sm:px-6">
      <div className="mx-auto max-w-3xl overflow-hidden rounded-2xl border bg-gradient-to-br from-brand-soft via-background to-background p-8 shadow-sm sm:p-12">
        <div className="mx-auto max-w-xl text-center">
          <span className="inline-flex items-center gap-2 rounded-full bg-brand/10 px-3 py-1 text-xs font-medium text-brand-text">
            <Mail className="size-3.5" aria-hidden="true" /> Early access by request
          </span>
          <h2 className="mt-4 text-3xl font-semibold tracking-tight">Request early access</h2>
          <p className="mt-3 text-muted-foreground">
            Clipshift is in limited beta. Leave your email and we will invite you as soon as a spot opens up.
          </p>
        </div>
        <form onSubmit={handleSubmit} className="mx-auto mt-8 flex max-w-md flex-col gap-3 sm:flex-row sm:items-end" aria-label="Request early access">
          <div className="flex-1 space-y-2">
            <Label htmlFor="request-access-email">Email address</Label>
            <Input
              id="request-access-email"
              name="email"
              type="email"
              required
              autoComplete="email"
              placeholder="you@example.com"
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              className="h-11 bg-background"
            />
          </div>
          <Button type="submit" variant="brand" size="lg" disabled={phase === 'submitting'}>
            {phase === 'submitting' ? 'Submitting...' : 'Request Access'}
          </Button>
        </form>
        <div aria-live="polite" className="mx-auto mt-4 min-h-6 max-w-md text-center">
          {phase === 'thanked' && (
            <p className="inline-flex items-center gap-2 text-sm font-medium text-success-soft-foreground">
              <CircleCheck className="size-4" aria-hidden="true" />
              {THANKS_MESSAGE}
            </p>
          )}
        </div>
      </div>
    </section>
  );
}
