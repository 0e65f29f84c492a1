-- Title search in a large library: trigram index for ILIKE '%term%'.
create extension if not exists pg_trgm;
create index clips_title_trgm_idx on clips using gin (title gin_trgm_ops);
