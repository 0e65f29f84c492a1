import { Link } from 'react-router-dom';
import { BrandLogo } from './brand-logo';
import { landingSectionPath, landingSections, paths } from '@/lib/paths';
import { CONTACT_EMAIL, SITE_NAME } from '@/lib/site';

const footerLinkClass = 'text-sm text-muted-foreground transition-colors hover:text-foreground';

/** Footer of the public pages: contact, FAQ, terms and privacy (spec section 2). */
export function SiteFooter() {
  return (
    <footer className="border-t bg-muted/40">
      <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-10 sm:px-6 md:flex-row md:items-start md:justify-between">
        <div className="max-w-sm space-y-2">
          <BrandLogo />
          <p className="text-sm text-muted-foreground">
            Turn Twitch clips into vertical short videos and post them to TikTok, YouTube, Instagram and Facebook. Currently in limited beta.
          </p>
        </div>
        <nav aria-label="Footer" className="flex flex-wrap gap-x-6 gap-y-2">
          <a className={footerLinkClass} href={`mailto:${CONTACT_EMAIL}`}>
            Contact
          </a>
          <Link className={footerLinkClass} to={landingSectionPath(landingSections.faq)}>
            FAQ
          </Link>
          <Link className={footerLinkClass} to={paths.tos}>
            Terms of Service
          </Link>
          <Link className={footerLinkClass} to={paths.privacy}>
            Privacy Policy
          </Link>
        </nav>
      </div>
      <div className="border-t">
        <p className="mx-auto max-w-6xl px-4 py-4 text-xs text-muted-foreground sm:px-6">
          © {new Date().getFullYear()} {SITE_NAME}. Not affiliated with Twitch, TikTok, YouTube, Instagram or Facebook.
        </p>
      </div>
    </footer>
  );
}
