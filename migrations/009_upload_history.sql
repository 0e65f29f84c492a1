-- Uploads outlive the TikTok account they went to: removing an account keeps its clips' post
-- history (the Posted badge) with a snapshot of the account's name, and the account's open_id, so
-- that connecting the same TikTok account again cannot post a clip a second time.
alter table uploads add column account_name text;
alter table uploads add column account_open_id text;
update uploads u
   set account_name = case when a.username is not null then '@' || a.username else a.display_name end,
       account_open_id = a.open_id
  from tiktok_accounts a
 where a.id = u.tiktok_account_id;
alter table uploads alter column account_name set not null;
alter table uploads alter column account_open_id set not null;

alter table uploads alter column tiktok_account_id drop not null;
alter table uploads drop constraint uploads_tiktok_account_id_fkey;
alter table uploads add constraint uploads_tiktok_account_id_fkey
  foreign key (tiktok_account_id) references tiktok_accounts (id) on delete set null;

-- At most once per clip and TikTok account, whichever row of ours the account has now.
-- (clip_row_id belongs to one user, and open_id identifies the TikTok account within our app.)
drop index uploads_clip_account_key;
create unique index uploads_clip_open_id_key on uploads (clip_row_id, account_open_id);
create index uploads_tiktok_account_idx on uploads (tiktok_account_id);
