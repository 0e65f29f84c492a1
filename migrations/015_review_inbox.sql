-- Review inbox (issue 12): clips of a streamer in `review` publish mode wait for a person.
-- null: never reviewed (any clip saved outside review mode); pending: in the inbox; approved and
-- rejected are final, so a rejected clip is never posted by automation later.
alter table clips add column review_status text;
alter table clips add constraint clips_review_status_check check (review_status in ('pending', 'approved', 'rejected'));
alter table clips add column reviewed_at timestamptz;
-- The inbox lists a user's pending clips oldest first.
create index clips_review_pending_idx on clips (user_id, created_at) where review_status = 'pending';

-- What the user chose once per account for posts nobody sets up one by one (approvals, auto posts):
-- TikTok's guidelines want the privacy chosen by the user, never a default of ours.
create table account_post_settings (
  tiktok_account_id uuid primary key references tiktok_accounts (id) on delete cascade,
  privacy_level text not null,
  disable_comment boolean not null default false,
  disable_duet boolean not null default false,
  disable_stitch boolean not null default false,
  updated_at timestamptz not null default now(),
  constraint account_post_settings_privacy_check check (privacy_level in ('PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'))
);
