import { useId } from 'react';
import type { AccountStatsPoint } from '@clipshift/shared';
import { formatCount, shortDate } from '@/lib/stats-format';

const WIDTH = 600;
const HEIGHT = 180;
const PAD = { top: 12, right: 12, bottom: 26, left: 44 };

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
  const x = (index: number) => PAD.left + (points.length <= 1 ? innerWidth / 2 : (index / (points.length - 1)) * innerWidth);
  const y = (views: number) => PAD.top + innerHeight - (views / max) * innerHeight;
  const line = points.map((point, index) => `${index === 0 ? 'M' : 'L'}${x(index).toFixed(1)},${y(point.views).toFixed(1)}`).join(' ');
  const area = points.length > 0 ? `${line} L${x(points.length - 1).toFixed(1)},${y(0)} L${x(0).toFixed(1)},${y(0)} Z` : '';
  const total = points.reduce((sum, point) => sum + point.views, 0);
  const first = points[0];
  const last = points.at(-1);
  const summary =
    first && last ? `${formatCount(total)} views from ${shortDate(first.date)} to ${shortDate(last.date)}; the most on one day: ${formatCount(Math.max(...points.map((p) => p.views)))}.` : 'No views yet.';
  const ticks = [0, max / 2, max];

  return (
    <figure className="space-y-2" data-testid="views-chart">
      <figcaption className="text-sm font-medium" id={`${id}-caption`}>
        {title}
      </figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} className="h-auto w-full" role="img" aria-labelledby={`${id}-title`} aria-describedby={`${id}-desc`}>
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{summary}</desc>
        {ticks.map((tick) => (
          <g key={tick}>
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(tick)} y2={y(tick)} className="stroke-border" strokeDasharray={tick === 0 ? undefined : '3 4'} />
            <text x={PAD.left - 8} y={y(tick)} dy="0.32em" textAnchor="end" className="fill-muted-foreground text-[11px] tabular-nums">
              {formatCount(tick)}
            </text>
          </g>
        ))}
        {area && <path d={area} className="fill-brand/15" />}
        {line && <path d={line} fill="none" className="stroke-brand" strokeWidth={2.5} strokeLinejoin="round" strokeLinecap="round" />}
        {points.length === 1 && first && <circle cx={x(0)} cy={y(first.views)} r={4} className="fill-brand" />}
        {first && (
          <text x={x(0)} y={HEIGHT - 6} textAnchor="start" className="fill-muted-foreground text-[11px]">
            {shortDate(first.date)}
          </text>
        )}
        {last && points.length > 1 && (
          <text x={x(points.length - 1)} y={HEIGHT - 6} textAnchor="end" className="fill-muted-foreground text-[11px]">
            {shortDate(last.date)}
          </text>
        )}
      </svg>
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
