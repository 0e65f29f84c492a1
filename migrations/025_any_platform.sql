-- One publishing model for every platform (issue 21): the tables YouTube joined under TikTok's
-- names are named for what they hold, and Instagram and Facebook join the platforms. The wire
-- names of the REST contract (tiktok_account_id, tiktok_accounts, link-tiktok) are unchanged; only
-- storage is renamed. Jobs stored under the old name 'tiktok/post' keep running: the worker
-- registers the post task under both names (server/src/platform/queue/contracts.ts).
alter table tiktok_accounts rename to accounts;
alter index tiktok_accounts_pkey rename to accounts_pkey;
alter table accounts drop constraint tiktok_accounts_platform_check;
alter table accounts add constraint accounts_platform_check check (platform in ('tiktok', 'youtube', 'instagram', 'facebook'));

alter table streamer_tiktok_accounts rename to streamer_accounts;
alter table streamer_accounts rename column tiktok_account_id to account_id;

alter table uploads rename column tiktok_account_id to account_id;
alter table uploads drop constraint uploads_platform_check;
alter table uploads add constraint uploads_platform_check check (platform in ('tiktok', 'youtube', 'instagram', 'facebook'));

alter table account_post_settings rename column tiktok_account_id to account_id;

alter table oauth_states drop constraint oauth_states_platform_check;
alter table oauth_states add constraint oauth_states_platform_check check (platform in ('tiktok', 'youtube', 'instagram', 'facebook'));
