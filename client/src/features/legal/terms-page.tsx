import { Link } from 'react-router-dom';
import { paths } from '@/lib/paths';
import { CONTACT_EMAIL, SITE_NAME } from '@/lib/site';
import { LegalDocument } from './legal-document';

export function TermsPage() {
  return (
    <LegalDocument
      title="Terms of Service"
      related={{ to: paths.privacy, label: 'Privacy Policy' }}
      intro={
        <p>
          These Terms of Service (the “Terms”) govern your use of {SITE_NAME}, a web application that turns public
          Twitch clips into short videos and posts them to TikTok on your behalf. Please read them carefully. By
          creating an account or using {SITE_NAME}, you agree to these Terms.
        </p>
      }
    >
      <h2>1. The service</h2>
      <p>{SITE_NAME} lets you:</p>
      <ul>
        <li>register Twitch streamers and download their publicly available clips, on demand or on a schedule you choose;</li>
        <li>render those clips as vertical or horizontal videos, optionally with generated subtitles;</li>
        <li>write or pick a description for each clip; and</li>
        <li>
          post finished videos to TikTok accounts you have connected, using TikTok’s official API and only with your
          consent.
        </li>
      </ul>
      <p>
        {SITE_NAME} is not affiliated with, endorsed by or sponsored by Twitch Interactive, Inc. or TikTok. Twitch and
        TikTok are trademarks of their respective owners.
      </p>

      <h2>2. Beta</h2>
      <p>
        {SITE_NAME} is in limited beta. Access is granted by invitation, features may change or be removed, and the
        service may be interrupted. We may limit the number of streamers, clips or posts per account to keep the
        service reliable for everyone.
      </p>

      <h2>3. Eligibility and accounts</h2>
      <ul>
        <li>You must be at least 18 years old, or the age of majority where you live, to use {SITE_NAME}.</li>
        <li>
          Registration may require an invite code. Each code is single-use and may expire. Do not sell or publish
          invite codes.
        </li>
        <li>
          You are responsible for keeping your password secret and for all activity under your account. Tell us
          promptly at <a href={`mailto:${CONTACT_EMAIL}`}>{CONTACT_EMAIL}</a> if you suspect unauthorised use.
        </li>
        <li>
          Your guest passkey lets someone you choose connect a TikTok account to your {SITE_NAME} account. Share it
          only with people you trust; anyone who has it can add an account to your list.
        </li>
      </ul>

      <h2>4. Connecting TikTok</h2>
      <p>
        You connect a TikTok account through TikTok’s own authorization screen. By doing so you authorize {SITE_NAME}{' '}
        to publish videos to that account as permitted by the scopes you approve. We only post the clips you choose to
        post, or clips of streamers for which you have switched on auto publish. You can disconnect an account in{' '}
        {SITE_NAME} at any time, and you can also revoke access from your TikTok settings. Your use of TikTok remains
        subject to TikTok’s own terms and community guidelines.
      </p>

      <h2>5. Your content and your responsibilities</h2>
      <p>
        Clips on Twitch belong to their broadcasters and to the people who made them. {SITE_NAME} is a tool; it does
        not grant you any right to other people’s content. <strong>You are solely responsible for making sure you
        have the rights or permission needed to download, modify and publish every clip you process with
        {' '}{SITE_NAME}</strong>, and that your posts comply with the law, with Twitch’s terms and with TikTok’s terms.
      </p>
      <p>
        You keep whatever rights you have in the descriptions you write and the videos you post. You grant us a
        limited licence to store, process and transmit that material only as needed to provide the service to you.
      </p>
      <p>
        If you believe content processed through {SITE_NAME} infringes your rights, write to{' '}
        <a href={`mailto:${CONTACT_EMAIL}`}>{CONTACT_EMAIL}</a> with enough detail for us to identify it. We act on
        valid notices and may suspend accounts of repeat infringers.
      </p>

      <h2>6. Acceptable use</h2>
      <p>You agree not to:</p>
      <ul>
        <li>post content that is unlawful, hateful, harassing, sexually explicit involving minors, or that infringes someone else’s rights;</li>
        <li>misrepresent who made a clip or impersonate a streamer or another person;</li>
        <li>use {SITE_NAME} to spam, to manipulate engagement or to get around TikTok’s or Twitch’s limits;</li>
        <li>try to access other users’ data, probe or overload the service, or circumvent its security or rate limits;</li>
        <li>resell or sublicense access to {SITE_NAME} without our written permission.</li>
      </ul>

      <h2>7. Third-party services</h2>
      <p>
        {SITE_NAME} relies on Twitch and TikTok and may use hosting, speech-to-text and text-generation providers to
        deliver its features. Their availability and behaviour are outside our control, and changes to their APIs may
        affect what {SITE_NAME} can do.
      </p>

      <h2>8. Fees</h2>
      <p>
        {SITE_NAME} is free during the beta. If we introduce paid plans, we will announce the prices before they apply
        to you, and you will be free to stop using the service.
      </p>

      <h2>9. Suspension and termination</h2>
      <p>
        You may stop using {SITE_NAME} and ask us to delete your account at any time. We may suspend or close accounts
        that break these Terms, that put the service or other users at risk, or when the beta ends, with notice where
        reasonably possible. On closure we delete your data as described in our{' '}
        <Link to={paths.privacy}>Privacy Policy</Link>.
      </p>

      <h2>10. Disclaimers</h2>
      <p>
        {SITE_NAME} is provided “as is” and “as available”, without warranties of any kind, express or implied,
        including fitness for a particular purpose and non-infringement. We do not guarantee that clips will be
        downloaded, rendered or posted successfully, on time, or at all, nor how TikTok will distribute your videos.
      </p>

      <h2>11. Limitation of liability</h2>
      <p>
        To the extent permitted by law, we are not liable for indirect, incidental, special or consequential damages,
        or for lost profits, followers, revenue or data, arising from your use of {SITE_NAME}. Our total liability for
        any claim is limited to the amount you paid us for the service in the twelve months before the claim (which
        during the free beta is zero). Nothing in these Terms limits liability that cannot be limited by law.
      </p>

      <h2>12. Indemnity</h2>
      <p>
        You agree to indemnify us against claims by third parties arising from content you post through {SITE_NAME} or
        from your breach of these Terms, including claims that you lacked the rights to a clip.
      </p>

      <h2>13. Changes to these Terms</h2>
      <p>
        We may update these Terms as the service evolves. We will change the “Last updated” date above and, for
        material changes, notify you in the app or by email before they take effect. Continuing to use {SITE_NAME}{' '}
        after that means you accept the updated Terms.
      </p>

      <h2>14. Governing law</h2>
      <p>
        These Terms are governed by the laws of the place where the operator of {SITE_NAME} is established, without
        regard to conflict-of-law rules, and without depriving you of the protection of mandatory consumer laws of the
        country where you live.
      </p>

      <h2>15. Contact</h2>
      <p>
        Questions about these Terms? Email us at <a href={`mailto:${CONTACT_EMAIL}`}>{CONTACT_EMAIL}</a>.
      </p>
    </LegalDocument>
  );
}
