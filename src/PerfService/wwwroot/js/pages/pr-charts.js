// The pull request page's history charts: per regression, the base branch's recent points, then each base round and
// each head round (the base commit's point on the branch drawn like a base round), so a reader sees whether head lands outside main's usual spread or only beside a lucky base.
import { el, shortSha } from '../dom.js';
import { palette } from '../charts.js';

const { Chart } = window;
const fmt = new Intl.NumberFormat('en', { maximumSignificantDigits: 4 });
const pct = (c) => (c === null || c === undefined ? '' : `${c >= 0 ? '+' : ''}${(c * 100).toFixed(1)}%`);

/** A section with one small chart per regression that has figures, largest change first; null when there is none. */
export function regressionCharts(report) {
  const rows = (report.rows || [])
    .filter((r) => r.outcome === 'Regression' && (r.history.length || r.baseRounds.length || r.headRounds.length))
    .sort((a, b) => Math.abs(b.change ?? 0) - Math.abs(a.change ?? 0));
  if (!rows.length) return null;
  const cards = rows.map((row, i) => {
    const canvas = el('canvas', { id: `history-${i}`, 'aria-label': `History of ${row.benchmark} on ${report.historyBranch}, with base and head rounds` });
    return { row, canvas, card: el('article', { class: 'card chart-card regression-chart', dataset: { benchmark: row.benchmark, profile: row.profile } },
      el('h3', {}, row.explorerPath ? el('a', { href: row.explorerPath }, row.benchmark) : row.benchmark),
      el('p', { class: 'muted' }, `${row.measure} (${row.unit}) · ${row.profile} · ${pct(row.change)} · `,
        `${row.history.length} points on ${report.historyBranch}, ${row.baseRounds.length} base and ${row.headRounds.length} head rounds`,
        row.alertGroupId ? [' · ', el('a', { href: `alerts.html?${new URLSearchParams({ group: row.alertGroupId })}`, class: 'group-link' }, `alert group #${row.alertGroupId}`)] : null),
      el('div', { class: 'chart-box small' }, canvas)) };
  });
  const section = el('section', { id: 'regression-charts' }, el('h2', {}, 'Regressions in context'), el('div', { class: 'chart-grid' }, cards.map((c) => c.card)));
  // Charts need their canvas in the document to size themselves: draw after the caller appended the section.
  section.draw = () => cards.forEach(({ row, canvas }) => draw(canvas, row, report.historyBranch, report.baseCommit));
  return section;
}

function draw(canvas, row, branch, baseCommit) {
  const labels = [...row.history.map((p) => shortSha(p.commit)), 'base', 'head'];
  // The base commit's own point on the branch, when it is there, stands out: with no base rounds it is the reference.
  const isBase = row.history.map((p) => Boolean(baseCommit) && p.commit === baseCommit);
  const rounds = (values, at) => values.map((y) => ({ x: at, y }));
  return new Chart(canvas, {
    type: 'line',
    data: {
      labels,
      datasets: [
        { kind: 'history', label: `${branch}`, data: row.history.map((p) => p.value), borderColor: '#6b7280', backgroundColor: '#6b7280',
          borderWidth: 1.5, tension: 0, pointRadius: isBase.map((b) => (b ? 6 : 2)), pointStyle: isBase.map((b) => (b ? 'rectRot' : 'circle')),
          pointBackgroundColor: isBase.map((b) => (b ? palette[0] : '#6b7280')), pointBorderColor: isBase.map((b) => (b ? palette[0] : '#6b7280')) },
        { kind: 'base', label: 'base rounds', data: rounds(row.baseRounds, 'base'), showLine: false, pointRadius: 5,
          pointStyle: 'rectRot', borderColor: palette[0], backgroundColor: palette[0] },
        { kind: 'head', label: 'head rounds', data: rounds(row.headRounds, 'head'), showLine: false, pointRadius: 5,
          pointStyle: 'triangle', borderColor: palette[1], backgroundColor: palette[1] },
      ],
    },
    options: {
      animation: false,
      maintainAspectRatio: false,
      scales: {
        x: { type: 'category', ticks: { maxRotation: 0, autoSkipPadding: 8 } },
        y: { title: { display: true, text: row.unit }, ticks: { callback: (v) => fmt.format(v) } },
      },
      plugins: { legend: { position: 'bottom', labels: { boxWidth: 8, usePointStyle: true } },
        tooltip: { callbacks: { label: (item) => `${item.dataset.label}: ${fmt.format(item.parsed.y)} ${row.unit}` } } },
    },
  });
}
