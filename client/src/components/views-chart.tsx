import { useId } from 'react';
import type { AccountStats } from '@clipshift/shared';

type AccountStatsPoint = AccountStats['series'][number];
import { formatCount, shortDate } from '@/lib/stats-format';

const WIDTH = 600;
const HEIGHT = 180;
const PAD = { top: 2, right: 0, bottom: 2, left: 0 };

/** A round top for the axis: 1, 2 or 5 times a power of ten at or above the highest value. */
function niceMax(value: number): number {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 5, 10].find((factor) => factor * power >= value) ?? 10;
  return step * power;
}

interface ViewsChartProps {
  points: readonly AccountStatsPoint[];
  /** Names the chart for assistive technology and as its caption. */
  title: string;
}

/**
 * Views per day as a small SVG line with its area, coloured with the theme's brand token (so it
 * follows light and dark). The SVG is one image with a title and a summary; the points themselves
 * are in a visually hidden table for screen readers.
 */
export function ViewsChart({ points, title }: ViewsChartProps) {
  const id = useId();
  const max = niceMax(Math.max(0, ...points.map((point) => point.views)));
  const innerWidth = WIDTH - PAD.left - PAD.right;
  const innerHeight = HEIGHT - PAD.top - PAD.bottom;
  // One day alone is drawn as a level line across the chart.
  const drawn = points.length === 1 ? [...points, ...points] : points;
  const x = (index: number) => PAD.left + (drawn.length <= 1 ? innerWidth / 2 : (index / (drawn.length - 1)) * innerWidth);
  const y = (views: number) => PAD.top + innerHeight - (views / max) * innerHeight;
  const line = drawn.map((point, index) => `${index === 0 ? 'M' : 'L'}${x(index).toFixed(1)},${y(point.views).toFixed(1)}`).join(' ');
  const area = drawn.length > 0 ? `${line} L${x(drawn.length - 1).toFixed(1)},${y(0)} L${x(0).toFixed(1)},${y(0)} Z` : '';
  const total = points.reduce((sum, point) => sum + point.views, 0);
  const first = points[0];
  const last = points.at(-1);
  const summary =
    first && last ? `${formatCount(total)} views from ${shortDate(first.date)} to ${shortDate(last.date)}; the most on one day: ${formatCount(Math.max(...points.map((p) => p.views)))}.` : 'No views yet.';
  const ticks = [0, max / 2, max];

  return (
    <figure className="space-y-2" data-testid="views-chart">
      <figcaption className="text-sm font-medium">{title}</figcaption>
      {/* The axis labels are HTML beside a stretched SVG, so they keep their size on a phone. */}
      <div className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-2">
        <div className="flex h-40 flex-col justify-between text-right text-[11px] leading-none text-muted-foreground tabular-nums" aria-hidden="true">
          {[...ticks].reverse().map((tick) => (
            <span key={tick}>{formatCount(tick)}</span>
          ))}
        </div>
        <svg
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          preserveAspectRatio="none"
          className="h-40 w-full overflow-visible"
          role="img"
          aria-labelledby={`${id}-title`}
          aria-describedby={`${id}-desc`}
        >
          <title id={`${id}-title`}>{title}</title>
          <desc id={`${id}-desc`}>{summary}</desc>
          {ticks.map((tick) => (
            <line
              key={tick}
              x1={0}
              x2={WIDTH}
              y1={y(tick)}
              y2={y(tick)}
              className="stroke-border"
              vectorEffect="non-scaling-stroke"
              strokeDasharray={tick === 0 ? undefined : '3 4'}
            />
          ))}
          {area && <path d={area} className="fill-brand/15" />}
          {line && (
            <path d={line} fill="none" className="stroke-brand" strokeWidth={2.5} vectorEffect="non-scaling-stroke" strokeLinejoin="round" strokeLinecap="round" />
          )}
        </svg>
        <span aria-hidden="true" />
        <div className="mt-1 flex justify-between text-[11px] text-muted-foreground" aria-hidden="true">
          <span>{first ? shortDate(first.date) : ''}</span>
          <span>{last && points.length > 1 ? shortDate(last.date) : ''}</span>
        </div>
      </div>
      <table className="sr-only">
        <caption>{title}</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Views</th>
          </tr>
        </thead>
        <tbody>
          {points.map((point) => (
            <tr key={point.date}>
              <td>{shortDate(point.date)}</td>
              <td>{point.views}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
