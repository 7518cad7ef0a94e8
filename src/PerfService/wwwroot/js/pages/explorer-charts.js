// The chart panel of the explorer: controls (measure, branch, profiles, normalisation, zoom) and one trend chart per
// selected benchmark, or one chart for all of them when normalised.
import { api } from '../api.js';
import { el, clear, showError, shortSha } from '../dom.js';
import { trendChart, toChartPoints, normalise } from '../charts.js';
import { word } from '../words.js';

const MAX_CHARTS = 12;
const charts = [];

export async function renderCharts(container, { state, context, known, onChange, writeState }) {
  charts.splice(0).forEach((c) => c.destroy());
  const measures = [...new Set(state.selected.flatMap((id) => known.get(id)?.measures.map((m) => m.name) ?? []))].sort();
  if (!state.measure) state.measure = measures.includes('time') ? 'time' : (measures[0] ?? 'time');
  const branch = state.branch || context.defaultBranch;

  const controls = el('div', { class: 'toolbar chart-controls' },
    select('Measure', 'measure', [...new Set([...measures, state.measure])].map((m) => [m, m]), state.measure, (v) => { state.measure = v; onChange(); }),
    // The default branch is offered (and chosen) even before its first run, so the explorer never opens on another.
    select('Branch', 'branch', [...new Set([context.defaultBranch, ...context.branches])].map((b) => [b, b]), branch, (v) => { state.branch = v; onChange(); }),
    el('fieldset', { class: 'profiles' }, el('legend', {}, 'Profiles'), context.profiles.map((p) => el('label', { class: 'check' },
      el('input', { type: 'checkbox', value: p, checked: !state.profiles.length || state.profiles.includes(p),
        onchange: (e) => { state.profiles = toggled(context.profiles, state.profiles, p, e.target.checked); onChange(); } }), p))),
    select('Normalise', 'norm', [['', 'Off (absolute)'], ['first', 'To first point'], ...(state.norm && state.norm !== 'first' ? [[state.norm, `To ${shortSha(state.norm)}`]] : [])],
      state.norm, (v) => { state.norm = v; onChange(); }),
    // Re-render rather than resetZoom(): a range from the URL is the zoom plugin's "original" range.
    el('button', { type: 'button', class: 'secondary', id: 'reset-zoom', onclick: () => { state.zmin = state.zmax = undefined; onChange(); } }, 'Reset zoom'),
    el('span', { class: 'muted hint' }, 'Drag to zoom · Shift+drag to pan · Ctrl+wheel · Click a point to open its run'));

  if (!state.selected.length) {
    return clear(container, controls, noRuns(branch, context),
      el('p', { class: 'empty' }, 'Pick one or more benchmarks on the left to see their history.'));
  }
  const ids = state.selected.slice(0, MAX_CHARTS);
  const body = el('div', { class: 'chart-list' });
  clear(container, controls, body, state.selected.length > MAX_CHARTS ? el('p', { class: 'muted' }, `Showing the first ${MAX_CHARTS} of ${state.selected.length}.`) : null);

  const results = await Promise.all(ids.map((id) => api.series(state.project, { benchmark: id, measure: state.measure, branch, profile: state.profiles, limit: 10000 })
    .then((series) => ({ id, series }), (error) => ({ id, error }))));
  const chartOptions = {
    range: { min: state.zmin, max: state.zmax },
    onPointClick: (p) => { location.href = `run.html?id=${encodeURIComponent(p.runId)}`; },
    onZoom: (min, max) => { state.zmin = Math.round(min); state.zmax = Math.round(max); writeState(); },
  };

  if (state.norm) {
    const ok = results.filter((r) => r.series);
    const lines = ok.flatMap(({ series }) => series.lines.map((l) => ({
      label: `${series.benchmark.key} · ${l.profile}`, profile: l.profile, points: normalise(toChartPoints(l, series.shas), state.norm === 'first' ? '' : state.norm),
    })));
    const canvas = el('canvas', { id: 'chart-combined', 'aria-label': 'Normalised trend of the selected benchmarks' });
    body.append(el('article', { class: 'card chart-card' }, el('h3', {}, `Change from ${state.norm === 'first' ? 'each line’s first point' : shortSha(state.norm)} (%)`),
      el('div', { class: 'chart-box tall' }, canvas), errors(results)));
    charts.push(trendChart(canvas, { ...chartOptions, lines, unit: '%', markers: ok.flatMap(({ series }) => markers(series, lines)) }));
    return;
  }
  for (const { id, series, error } of results) {
    if (error) {
      body.append(el('article', { class: 'card chart-card' }, el('h3', {}, known.get(id)?.key ?? `Benchmark ${id}`), el('div', { class: 'error' }, error.message)));
      continue;
    }
    const lines = series.lines.map((l) => ({ label: l.profile, profile: l.profile, points: toChartPoints(l, series.shas) }));
    const canvas = el('canvas', { id: `chart-${id}`, dataset: { benchmark: id }, 'aria-label': `Trend of ${series.benchmark.key}` });
    const count = lines.reduce((n, l) => n + l.points.length, 0);
    body.append(el('article', { class: 'card chart-card', dataset: { benchmark: id } },
      el('h3', {}, series.benchmark.key),
      el('p', { class: 'muted' }, `${series.benchmark.suite} · ${series.measure.name} (${series.measure.unit}, ${series.measure.direction === 'HigherIsBetter' ? 'higher' : 'lower'} is better) · ${series.branch} · ${count} points`),
      count ? el('div', { class: 'chart-box' }, canvas)
        : el('p', { class: 'empty' }, context.branches.includes(branch) ? 'No results on this branch and these profiles.' : noRunsText(branch, context)),
      commitNotes(state, lines), markerList(series)));
    if (count) charts.push(trendChart(canvas, { ...chartOptions, lines, unit: series.measure.unit, markers: [...markers(series, lines), ...commitMarkers(state, lines)] }));
  }
}

/** Shown when the branch has no run at all yet (a new project, or one whose runs so far are on other branches). */
function noRuns(branch, context) {
  return context.branches.includes(branch) ? null : el('p', { class: 'empty', id: 'no-runs' }, noRunsText(branch, context));
}

function noRunsText(branch, context) {
  const others = context.branches.length ? ` Runs exist on ${context.branches.join(', ')}: pick one under Branch.` : '';
  return `No runs on ${branch} yet.${others}`;
}

/** The base and head commits of a pull request (explorer.html?base=…&head=…), marked where the lines have them. */
function commitMarkers(state, lines) {
  const points = lines.flatMap((l) => l.points);
  return [['base', state.base, 'Base'], ['head', state.head, 'Head']].filter(([, sha]) => sha).flatMap(([name, sha, kind]) => {
    const hit = points.find((p) => p.commit?.startsWith(sha));
    return hit ? [{ x: hit.x, label: `${name} ${shortSha(hit.commit)}`, state: kind }] : [];
  });
}

/** Head is a pull request's commit, usually not on the base branch: say so rather than mark nothing silently. */
function commitNotes(state, lines) {
  const points = lines.flatMap((l) => l.points);
  const missing = [['base', state.base], ['head', state.head]].filter(([, sha]) => sha && !points.some((p) => p.commit?.startsWith(sha)));
  return missing.length ? el('p', { class: 'muted commit-note' }, missing.map(([name, sha]) => `${name} ${shortSha(sha)}`).join(' and ')
    + ' not on this branch: the pull request page compares them.') : null;
}

function select(label, id, options, value, onChange) {
  return el('label', {}, label, el('select', { id, onchange: (e) => onChange(e.target.value) },
    options.map(([v, text]) => el('option', { value: v, selected: v === value }, text))));
}

function toggled(all, current, profile, on) {
  const base = current.length ? current : all;
  const next = on ? [...new Set([...base, profile])] : base.filter((p) => p !== profile);
  return next.length === all.length ? [] : next;
}

/** Markers sit at the alert's commit time, or at the point of its commit when the time is unknown. */
function markers(series, lines) {
  return series.markers.map((m) => {
    const at = m.at ? new Date(m.at).getTime() : lines.flatMap((l) => l.points).find((p) => p.commit === m.toCommit)?.x;
    return { x: at, label: `${word(m.kind)} (${word(m.state)})`, state: m.state, alertId: m.alertId };
  }).filter((m) => m.x !== undefined);
}

function markerList(series) {
  if (!series.markers.length) return null;
  return el('ul', { class: 'markers' }, series.markers.map((m) => el('li', {},
    el('a', { href: `alerts.html?${new URLSearchParams({ id: m.alertId })}` }, `#${m.alertId}`), ' ',
    m.groupId ? [el('a', { href: `alerts.html?${new URLSearchParams({ group: m.groupId })}`, class: 'group-link' }, `group #${m.groupId}`), ' '] : null,
    `${word(m.kind)} · ${word(m.state)} · ${m.profile ?? 'all profiles'} · ${shortSha(m.fromCommit)}…${shortSha(m.toCommit)} · `, el('span', { class: 'muted' }, m.summary))));
}

function errors(results) {
  const failed = results.filter((r) => r.error);
  return failed.length ? el('ul', { class: 'error' }, failed.map((r) => el('li', {}, `Benchmark ${r.id}: ${r.error.message}`))) : null;
}
