-- Instagram's Reels options of a post (rest-api.md, "Posting to any platform"): shown in the feed
-- too (default), a trial Reel, invited collaborators. Other platforms' uploads keep the defaults.
alter table uploads add column instagram_share_to_feed boolean not null default true;
alter table uploads add column instagram_trial_reel boolean not null default false;
alter table uploads add column instagram_collaborators text[] not null default '{}';
