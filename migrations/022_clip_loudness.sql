-- The rendered video's loudness (issue 20): integrated loudness (LUFS) and true peak (dBTP) as
-- ffmpeg's EBU R128 scanner measured them on the finished file, stored by every render (download
-- runs, re-renders, subtitle burns). Null for clips rendered before, and for silent videos.
alter table clips
  add column loudness_integrated_lufs real,
  add column loudness_true_peak_dbtp real,
  add constraint clips_loudness_both check ((loudness_integrated_lufs is null) = (loudness_true_peak_dbtp is null));
