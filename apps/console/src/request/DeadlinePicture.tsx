import { useId } from 'preact/hooks';
import { formatDate } from '../format';
import { type Band, deadlineGeometry, deadlineSummary, type DeadlineInput, type Marker } from './deadline-picture';

/*
 * The deadline picture: the geometry of deadline-picture.ts drawn as SVG. Positions are percentages of the SVG's
 * width (no viewBox), so the picture takes any width without stretching its text. Colours come from styles.css.
 */

const TRACK = { y: 34, height: 26 };
const BASE_BAR = { y: 22, height: 6 };
const MARKER_TOP = 18;
const MARKER_BOTTOM = 66;
const LABEL_ROWS = [80, 95, 110];
const HEIGHT = 140;

const pct = (n: number) => `${n}%`;

/** A label near an edge is anchored to it, so that it stays inside the picture. */
function anchorOf(x: number): 'start' | 'middle' | 'end' {
  return x < 12 ? 'start' : x > 88 ? 'end' : 'middle';
}

function markerClass(marker: Marker): string {
  return `marker marker-${marker.kinds.includes('due') ? 'due' : marker.kinds.includes('today') ? 'today' : 'base-deadline'}`;
}

export function DeadlinePicture({ explanation, now }: { explanation: DeadlineInput; now: Date }) {
  const hatch = `hatch-${useId()}`;
  const geometry = deadlineGeometry(explanation, now, formatDate);
  const summary = deadlineSummary(explanation, now, formatDate);
  return (
    <figure class="deadline-figure">
      <svg role="img" aria-label={summary} class="deadline-svg" width="100%" height={HEIGHT} focusable="false">
        <defs>
          <pattern id={hatch} width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
            <rect width="8" height="8" class="hatch-ground" />
            <rect width="3" height="8" class="hatch-line" />
          </pattern>
        </defs>
        <text x="0" y="12" class="svg-label" text-anchor="start">
          Base period
        </text>
        <rect x={pct(geometry.basePeriod.x)} y={BASE_BAR.y} width={pct(geometry.basePeriod.width)} height={BASE_BAR.height} class="base-period" />
        {geometry.bands.map((band, i) => (
          <BandShape key={i} band={band} hatch={hatch} />
        ))}
        {geometry.markers.map((marker) => (
          <g key={marker.at} class={markerClass(marker)}>
            <line x1={pct(marker.x)} x2={pct(marker.x)} y1={MARKER_TOP} y2={MARKER_BOTTOM} />
            <text x={pct(marker.x)} y={LABEL_ROWS[marker.row]} text-anchor={anchorOf(marker.x)} class="svg-label">
              {marker.label}
            </text>
          </g>
        ))}
        <text x="0" y={HEIGHT - 6} class="svg-axis" text-anchor="start">
          {formatDate(geometry.start)}
        </text>
        <text x="100%" y={HEIGHT - 6} class="svg-axis" text-anchor="end">
          {formatDate(geometry.end)}
        </text>
      </svg>
      <figcaption>
        <ul class="legend">
          {geometry.bands
            .filter((band) => band.kind !== 'running')
            .map((band, i) => (
              <li key={i}>
                <span class={`swatch swatch-${band.kind}`} aria-hidden="true" />
                {band.label}
              </li>
            ))}
          <li>
            <span class="swatch swatch-running" aria-hidden="true" />
            Time that counts toward the deadline
          </li>
        </ul>
      </figcaption>
    </figure>
  );
}

/** A pause that has just begun still shows as a sliver. */
const MIN_PAUSE_WIDTH = 0.6;

function BandShape({ band, hatch }: { band: Band; hatch: string }) {
  const width = band.kind === 'pause' ? Math.max(band.width, MIN_PAUSE_WIDTH) : band.width;
  return (
    <rect
      x={pct(band.x)}
      y={TRACK.y}
      width={pct(width)}
      height={TRACK.height}
      class={`band band-${band.kind}${band.open ? ' band-open' : ''}`}
      fill={band.kind === 'pause' ? `url(#${hatch})` : undefined}
    />
  );
}
