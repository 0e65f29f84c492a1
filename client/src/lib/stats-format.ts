/** Counts as people read them: 950, 1.2K, 34K, 1.5M. */
export function formatCount(value: number): string {
  return new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 }).format(value);
}

/** A YYYY-MM-DD day as "Mar 4", read as a calendar day (no time zone shift). */
export function shortDate(day: string): string {
  const [year, month, date] = day.split('-').map(Number);
  if (!year || !month || !date) return day;
  return new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(Date.UTC(year, month - 1, date));
}
