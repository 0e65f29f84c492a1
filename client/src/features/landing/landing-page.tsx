import { BenefitsSection } from './benefits-section';
import { FaqSection } from './faq-section';
import { FeaturesSection } from './features-section';
import { HeroSection } from './hero-section';
import { HowItWorksSection } from './how-it-works-section';
import { RequestAccessSection } from './request-access-form';

export function LandingPage() {
  return (
    <>
      <HeroSection />
      <FeaturesSection />
      <HowItWorksSection />
      <BenefitsSection />
      <RequestAccessSection />
      <FaqSection />
    </>
  );
}
