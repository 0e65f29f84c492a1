import { Link } from 'react-router-dom';
import { LOG_RETENTION_DAYS } from '@clipshift/shared';
import { paths } from '@/lib/paths';
import { CONTACT_EMAIL, SITE_NAME } from '@/lib/site';
import { LegalDocument } from './legal-document';

export function PrivacyPage() {
  return (
    <LegalDocument
      title="Privacy Policy"
      related={{ to: paths.tos, label: 'Terms of Service' }}
      intro={
        <p>
          This Privacy Policy explains what information {SITE_NAME} collects when you use it, why, how long we keep
          it, and the choices you have. {SITE_NAME} downloads public Twitch clips, renders them as short videos and,
          with your consent, posts them to TikTok and to YouTube through each platform’s official API.
        </p>
      }
    >
      <h2>1. Information we collect</h2>
      <h3>Account information</h3>
      <ul>
        <li>Your username and password. Passwords are never stored in readable form: we keep only a salted Argon2id hash.</li>
        <li>Whether your account is an administrator account, and which invite code you registered with, if any.</li>
        <li>A session record while you are signed in, identified by a random token in a cookie (see section 5).</li>
        <li>Your guest passkey, a short code you can share so that someone else can connect a TikTok account or a YouTube channel for you.</li>
      </ul>
      <h3>TikTok account information</h3>
      <p>When you connect a TikTok account, TikTok shares with us, with your permission:</p>
      <ul>
        <li>your TikTok account identifier, display name, username and avatar URL; and</li>
        <li>
          access and refresh tokens that allow us to publish videos you choose to post. These tokens are{' '}
          <strong>encrypted at rest</strong> (AES-256-GCM) with a key kept outside the database.
        </li>
      </ul>
      <p>We do not receive your TikTok password, and we do not read your TikTok messages, followers or other videos.</p>
      <h3>YouTube channel information</h3>
      <p>
        When you connect a YouTube channel, you sign in with Google, and Google shares with us, with your permission,
        the channel’s identifier, title, handle and picture, and access and refresh tokens that allow us to upload the
        videos you choose to post and to read their view counts. These tokens are <strong>encrypted at rest</strong>{' '}
        like TikTok’s. {SITE_NAME} uses the YouTube API Services: by connecting a channel you also agree to the{' '}
        <a href="https://www.youtube.com/t/terms">YouTube Terms of Service</a>, and Google’s handling of your data is
        described in the <a href="https://policies.google.com/privacy">Google Privacy Policy</a>.
      </p>
      <p>We do not receive your Google password, and we do not read your channel’s other videos, comments or subscribers.</p>
      <h3>Content you process</h3>
      <ul>
        <li>The streamers you add and your preferences for them (clip limit, format, language, schedule, auto publish).</li>
        <li>
          Public information about Twitch clips (title, broadcaster, view count, dates, thumbnails), the clip videos we
          download and the videos we render from them.
        </li>
        <li>Transcripts and subtitles generated from a clip’s audio, and the descriptions you write or select.</li>
        <li>The status of each post to TikTok or YouTube, including the platform’s identifier of the post, its view counts and any error it reports.</li>
      </ul>
      <h3>Logs</h3>
      <p>
        We record events about your work — sign-ins, failed sign-in attempts, downloads, renders, posts and errors —
        together with a timestamp and, for security events, the IP address they came from. You can see the log
        entries about your account on the System Logs page.
      </p>
      <h3>Stored in your browser</h3>
      <p>
        {SITE_NAME} keeps a small note in your browser’s local storage of whether you are signed in (re-checked with
        the server every few minutes) and your app preferences. This never leaves your device except as part of your
        normal use of the app.
      </p>

      <h2>2. How we use information</h2>
      <ul>
        <li>to provide the service: download and render clips, generate subtitles and description suggestions, and post to TikTok or YouTube when you ask us to;</li>
        <li>to keep your account secure: authenticate you, rate-limit sign-in attempts and investigate abuse;</li>
        <li>to operate and improve {SITE_NAME}: diagnose failures and understand which features are used;</li>
        <li>to contact you about your account, the beta or changes to our terms.</li>
      </ul>
      <p>
        We rely on the performance of our contract with you for the service itself, on your consent for connecting
        TikTok or YouTube and posting to them, and on our legitimate interest in keeping the service secure and working.
      </p>

      <h2>3. Sharing</h2>
      <p>We do not sell your personal information and we do not use it for advertising. We share it only:</p>
      <ul>
        <li>with TikTok or YouTube (Google), when you post: the video, its description or title and the request to publish it on your account or channel;</li>
        <li>with Twitch, when we request public clip information and downloads on your behalf;</li>
        <li>
          with providers that host the service or process audio and text for subtitles and description suggestions,
          acting on our instructions and under confidentiality obligations;
        </li>
        <li>when the law requires it, or to protect the rights, safety and property of our users or of {SITE_NAME}.</li>
      </ul>

      <h2>4. Retention</h2>
      <ul>
        <li>Account information: for as long as your account exists.</li>
        <li>Sessions: until you log out or the session expires after a period of inactivity.</li>
        <li>TikTok and YouTube tokens and account details: until you disconnect the account or delete your {SITE_NAME} account.</li>
        <li>Clips, rendered videos, transcripts and descriptions: until you delete them or your account.</li>
        <li>
          <strong>Logs: {LOG_RETENTION_DAYS} days.</strong> Older entries are deleted automatically.
        </li>
      </ul>
      <p>When you delete your account, we delete the associated data within 30 days, except where the law requires us to keep it longer.</p>

      <h2>5. Cookies</h2>
      <p>
        We use a single, strictly necessary session cookie to keep you signed in. It is HttpOnly (scripts cannot read
        it), sent only to {SITE_NAME}, and cleared when you log out. We use no advertising or third-party tracking
        cookies.
      </p>

      <h2>6. Security</h2>
      <p>
        We protect your information with hashed passwords, encrypted third-party tokens, encrypted connections,
        per-user access controls and rate limits. No system is perfectly secure, so please use a strong, unique
        password and tell us about anything suspicious.
      </p>

      <h2>7. Your rights and choices</h2>
      <ul>
        <li>You can disconnect a TikTok account at any time in {SITE_NAME}’s settings or in your TikTok app.</li>
        <li>
          You can disconnect a YouTube channel at any time in {SITE_NAME}’s settings, or revoke {SITE_NAME}’s access on
          your Google Account’s <a href="https://myaccount.google.com/permissions">security settings page</a>.
        </li>
        <li>You can delete clips, streamers and, on request, your whole account.</li>
        <li>
          Depending on where you live, you may have the right to access, correct, export or delete your personal
          information, to object to or restrict some processing, and to withdraw consent. Write to{' '}
          <a href={`mailto:${CONTACT_EMAIL}`}>{CONTACT_EMAIL}</a> and we will answer within 30 days.
        </li>
        <li>You may also complain to your local data-protection authority.</li>
      </ul>

      <h2>8. Children</h2>
      <p>
        {SITE_NAME} is not intended for anyone under 18, and we do not knowingly collect information from children. If
        you believe a child has given us information, contact us and we will delete it.
      </p>

      <h2>9. International transfers</h2>
      <p>
        Our servers and providers may be located in other countries than yours. Where we transfer personal information
        across borders, we use safeguards required by applicable law.
      </p>

      <h2>10. Changes to this policy</h2>
      <p>
        We will post any changes here and update the “Last updated” date. For material changes we will also notify you
        in the app or by email. The <Link to={paths.tos}>Terms of Service</Link> explain how changes take effect.
      </p>

      <h2>11. Contact</h2>
      <p>
        For any privacy question or request, email <a href={`mailto:${CONTACT_EMAIL}`}>{CONTACT_EMAIL}</a>.
      </p>
    </LegalDocument>
  );
}
