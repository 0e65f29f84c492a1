-- A connection's single-use state belongs to one platform: a TikTok state is refused on the
-- YouTube callback and the other way round.
alter table oauth_states add column platform text not null default 'tiktok';
alter table oauth_states add constraint oauth_states_platform_check check (platform in ('tiktok', 'youtube'));
