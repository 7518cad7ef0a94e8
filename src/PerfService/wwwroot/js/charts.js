// Chart.js configuration for trend charts: one line per series, its confidence band (fill between the CI bounds),
// alert markers as vertical lines, drag/ctrl+wheel zoom and shift+drag pan (chartjs-plugin-zoom), click to open a run.
const { Chart } = window;
if (window.ChartZoom) Chart.register(window.ChartZoom);

export const palette = ['#2563eb', '#db2777', '#059669', '#d97706', '#7c3aed', '#0891b2', '#dc2626', '#4b5563'];
const markerColors = { Active: '#dc2626', Acknowledged: '#d97706', Fixed: '#059669', Invalid: '#9ca3af', Base: '#2563eb', Head: '#db2777' };

const alpha = (hex, a) => `${hex}${Math.round(a * 255).toString(16).padStart(2, '0')}`;
const dateLabel = (ms) => new Date(ms).toISOString().slice(0, 10);
// Zoomed in to a few days, ticks need the hour too (Chart.js calls this with the scale as `this`).
function tickLabel(ms) {
  const iso = new Date(ms).toISOString();
  return this.max - this.min < 4 * 86400000 ? `${iso.slice(5, 10)} ${iso.slice(11, 16)}` : iso.slice(0, 10);
}
const fmt = new Intl.NumberFormat('en', { maximumSignificantDigits: 4 });

/** Draws each marker as a dashed vertical line at its commit time, labelled with the alert kind. */
const markerPlugin = {
  id: 'perfMarkers',
  afterDatasetsDraw(chart, _args, options) {
    const { ctx, chartArea, scales } = chart;
    const labelsAt = new Map();
    for (const marker of options.markers || []) {
      const x = scales.x.getPixelForValue(marker.x);
      if (!(x >= chartArea.left && x <= chartArea.right)) continue;
      // Markers on one commit stack their labels instead of overprinting them.
      const row = labelsAt.get(Math.round(x)) ?? 0;
      labelsAt.set(Math.round(x), row + 1);
      ctx.save();
      ctx.strokeStyle = markerColors[marker.state] || '#6b7280';
      ctx.fillStyle = ctx.strokeStyle;
      ctx.setLineDash([4, 4]);
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      ctx.moveTo(x, chartArea.top);
      ctx.lineTo(x, chartArea.bottom);
      ctx.stroke();
      ctx.font = '11px system-ui, sans-serif';
      ctx.fillText(marker.label, Math.min(x + 4, chartArea.right - 120), chartArea.top + 12 + row * 13);
      ctx.restore();
    }
  },
};

/**
 * lines: [{ label, profile, points: [{ x (ms), y, lo, hi, commit, runId }] }]
 * markers: [{ x (ms), label, state, alertId }]
 */
export function trendChart(canvas, { lines, unit, markers = [], onPointClick, onZoom, range }) {
  const datasets = [];
  lines.forEach((line, i) => {
    const color = palette[i % palette.length];
    const dense = line.points.length > 300;
    const band = (key) => line.points.map((p) => ({ x: p.x, y: p[key] ?? null }));
    datasets.push(
      { kind: 'band-lower', series: line.label, data: band('lo'), borderWidth: 0, pointRadius: 0, pointHitRadius: 0, fill: false, spanGaps: false },
      { kind: 'band-upper', series: line.label, data: band('hi'), borderWidth: 0, pointRadius: 0, pointHitRadius: 0, fill: '-1',
        backgroundColor: alpha(color, 0.15), spanGaps: false },
      { kind: 'line', series: line.label, profile: line.profile, label: line.label, data: line.points, borderColor: color,
        backgroundColor: color, borderWidth: 2, pointRadius: dense ? 0 : 3, pointHoverRadius: 5, tension: 0 });
  });

  const existing = Chart.getChart(canvas);
  if (existing) existing.destroy();
  return new Chart(canvas, {
    type: 'line',
    data: { datasets },
    plugins: [markerPlugin],
    options: {
      animation: false,
      parsing: false,
      normalized: true,
      maintainAspectRatio: false,
      interaction: { mode: 'nearest', intersect: false, axis: 'x' },
      scales: {
        x: { type: 'linear', min: range?.min, max: range?.max, ticks: { callback: tickLabel, maxRotation: 0, autoSkipPadding: 16 } },
        y: { title: { display: Boolean(unit), text: unit }, ticks: { callback: (v) => fmt.format(v) } },
      },
      onClick(event, _elements, chart) {
        const hit = chart.getElementsAtEventForMode(event, 'nearest', { intersect: true }, true)
          .find((e) => chart.data.datasets[e.datasetIndex].kind === 'line');
        if (hit && onPointClick) onPointClick(chart.data.datasets[hit.datasetIndex].data[hit.index]);
      },
      plugins: {
        perfMarkers: { markers },
        legend: { labels: { filter: (item, data) => data.datasets[item.datasetIndex].kind === 'line' } },
        tooltip: {
          filter: (item) => item.dataset.kind === 'line',
          callbacks: {
            title: (items) => items.length ? `${items[0].raw.commit.slice(0, 10)} · ${dateLabel(items[0].raw.x)}` : '',
            label: (item) => {
              const p = item.raw;
              const bounds = p.lo !== null && p.lo !== undefined ? ` [${fmt.format(p.lo)} – ${fmt.format(p.hi)}]` : '';
              return `${item.dataset.label}: ${fmt.format(p.y)} ${unit}${bounds}`;
            },
            footer: () => 'click: open the run',
          },
        },
        zoom: {
          zoom: { drag: { enabled: true, backgroundColor: 'rgba(37,99,235,0.12)' }, wheel: { enabled: true, modifierKey: 'ctrl' }, mode: 'x',
            onZoomComplete: ({ chart }) => onZoom?.(chart.scales.x.min, chart.scales.x.max) },
          pan: { enabled: true, mode: 'x', modifierKey: 'shift', onPanComplete: ({ chart }) => onZoom?.(chart.scales.x.min, chart.scales.x.max) },
        },
      },
    },
  });
}

/** One line of a series in columns (format=columns) as the points the chart wants; shas is the series' commit table. */
export function toChartPoints(line, shas) {
  const points = new Array(line.runIds.length);
  for (let i = 0; i < points.length; i++) {
    points[i] = { x: line.times[i], y: line.values[i], lo: line.lower[i], hi: line.upper[i], commit: shas[line.commits[i]], runId: line.runIds[i], n: line.samples[i] };
  }
  return points;
}

/** Relative view: every value as a % change from the line's value at the reference commit (or its first point). */
export function normalise(points, refCommit) {
  const ref = points.find((p) => p.commit.startsWith(refCommit || '\u0000')) ?? points[0];
  if (!ref || !ref.y) return points;
  const rel = (v) => (v === null || v === undefined ? null : (v / ref.y - 1) * 100);
  return points.map((p) => ({ ...p, raw: p.y, y: rel(p.y), lo: rel(p.lo), hi: rel(p.hi) }));
}
