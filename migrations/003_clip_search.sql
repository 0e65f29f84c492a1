-- Title search inside one user's library: a trigram index that also holds user_id (btree_gin),
-- so "this user's clips whose title contains X" is one bitmap index scan, count included.
-- fastupdate off: clips arrive a few at a time, and a pending list would make the planner
-- (rightly) distrust the index until the next vacuum.
create extension if not exists pg_trgm;
create extension if not exists btree_gin;
create index clips_user_title_trgm_idx on clips using gin (user_id, title gin_trgm_ops) with (fastupdate = off);
