-- YouTube posts (issue 14): an account's choice for approved and automatic posts may be YouTube's
-- privacy (private, unlisted, public) as well as TikTok's levels; which one fits is checked against
-- the account's platform by the publishing domain. uploads.privacy_level holds either too, and
-- uploads.title the YouTube title.
alter table account_post_settings drop constraint account_post_settings_privacy_check;
alter table account_post_settings add constraint account_post_settings_privacy_check
  check (privacy_level in ('PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY', 'private', 'unlisted', 'public'));
