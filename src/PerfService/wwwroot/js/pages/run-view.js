// A run: its verdicts (the same rows as the pull-request comment), its targets and its raw results.
import { api } from '../api.js';
import { el, clear, showError, shortSha, fmtNumber, fmtPercent, fmtTime, badge, outcomeKinds } from '../dom.js';
import { dataTable } from '../table.js';
import { word } from '../words.js';
import { unmeasuredLine } from './unmeasured.js';
import { profilesSection } from './profiles.js';

const pct = (v) => (v === null || v === undefined ? null : v * 100);

export async function renderRun(container, id, { heading = true } = {}) {
  try {
    const [detail, verdicts, targets] = await Promise.all([api.run(id), api.verdicts(id), api.targets(id)]);
    const r = detail.run;
    const explorer = (benchmarkId, measure) => `explorer.html?${new URLSearchParams({ project: r.project, b: benchmarkId, measure, profile: r.profile })}`;
    clear(container,
      heading ? el('h1', {}, `Run #${r.id}`) : null,
      facts(r),
      summary(verdicts, targets),
      section('Verdicts', verdicts.length ? verdictTable(verdicts, explorer) : el('p', { class: 'muted' }, 'No verdicts: this run is not part of a compared job.')),
      section('Targets', targets.length ? targetTables(targets) : el('p', { class: 'muted' }, 'No targets were evaluated for this run.')),
      // A target this run broke on the default branch is profiled against the commit before, like a change point.
      targets.some((t) => t.outcome === 'Fail') && !r.pullRequest ? profilesSection(() => api.runProfiles(id)) : null,
      section(`Results (${detail.results.length})`, resultTable(detail.results)));
  } catch (e) {
    showError(container, e);
  }
}

function facts(r) {
  const item = (label, ...value) => [el('dt', {}, label), el('dd', {}, ...value)];
  const compare = r.baseCommit ? el('a', { href: `compare.html?${new URLSearchParams({ project: r.project, base: r.baseCommit, head: `run:${r.id}` })}` }, 'compare with base') : null;
  return el('dl', { class: 'facts' },
    item('Project', el('a', { href: `explorer.html?${new URLSearchParams({ project: r.project })}` }, r.project)),
    item('Commit', el('span', { class: 'mono', title: r.commit }, shortSha(r.commit))),
    r.baseCommit ? item('Base', el('span', { class: 'mono', title: r.baseCommit }, shortSha(r.baseCommit)), ' ', compare) : null,
    item('Branch', r.pullRequest ? el('a', { href: `pr.html?${new URLSearchParams({ project: r.project, pr: r.pullRequest })}` }, `PR #${r.pullRequest}`) : (r.branch ?? '–')),
    item('Profile', r.profile, r.profileMismatch ? badge('mismatch', { mismatch: 'warn' }) : null),
    item('Suite', `${r.suite} (${r.format})`),
    item('Agent', r.agent ?? '–'),
    item('Role', `${r.role}, round ${r.round}`),
    r.disturbance ? item('Disturbance', disturbance(r)) : null,
    item('Created', fmtTime(r.createdAt)));
}

// What the agent measured around the round, and what the service did with it.
function disturbance(r) {
  const d = r.disturbance;
  const share = `other processes used ${Math.round(d.otherCpuShare * 100)}% of its ${d.suiteCores} cores, steal ${Math.round(d.stealShare * 100)}%`;
  const tried = d.attempts > 1 ? `; ${d.attempts} attempts, the least disturbed posted` : '';
  return el('span', { id: 'run-disturbance', class: d.disturbed ? 'bad' : '' },
    d.disturbed ? `disturbed: ${r.disturbedBy ?? share}${tried}` : `quiet (${share})${tried}`,
    r.leftOutAsDisturbed ? ' · left out of change points and baselines' : '', ' · ',
    el('a', { href: `disturbance.html?${new URLSearchParams({ project: r.project, profile: r.profile })}` }, `${r.profile} over time`));
}

function summary(verdicts, targets) {
  const count = (rows, key, value) => rows.filter((x) => x[key] === value).length;
  return el('div', { class: 'stats' },
    ['Regression', 'Improvement', 'NoChange', 'Inconclusive'].map((o) => el('span', { class: 'stat' }, badge(o, outcomeKinds), ` ${count(verdicts, 'outcome', o)}`)),
    el('span', { class: 'stat' }, 'targets ', ['Pass', 'Fail', 'AtRisk', 'NotMeasured']
      .filter((o) => o === 'Pass' || o === 'Fail' || count(targets, 'outcome', o))
      .map((o) => [badge(o, outcomeKinds), ` ${count(targets, 'outcome', o)} `])));
}

const section = (title, body) => el('section', {}, el('h2', {}, title), body);

function verdictTable(verdicts, explorer) {
  const outcomes = [...new Set(verdicts.map((v) => v.outcome))];
  return dataTable({
    id: 'verdicts', rows: verdicts, urlKeys: { sort: 'vsort', filter: 'vfilter' },
    filters: [{ key: 'outcome', label: 'outcomes', options: outcomes.map((o) => [o, word(o)]), test: (v, o) => v.outcome === o }],
    columns: [
      { key: 'benchmark', label: 'Benchmark', value: (v) => v.benchmark, render: (v) => el('a', { href: explorer(v.benchmarkId, v.measure) }, v.benchmark) },
      { key: 'measure', label: 'Measure', value: (v) => v.measure },
      { key: 'profile', label: 'Profile', value: (v) => v.profile },
      { key: 'base', label: 'Base → head', class: 'num', value: (v) => v.baseMedian, render: (v) => `${fmtNumber(v.baseMedian)} → ${fmtNumber(v.headMedian, v.unit)}` },
      { key: 'change', label: 'Change', class: 'num', value: (v) => v.change, render: (v) => fmtPercent(pct(v.change)) },
      // The interval shows how large the change may be, the figure the outcome is read from. The p-value is left out:
      // adjusted over every row (and not computed for exact figures), it read 1 even beside a +66% change.
      { key: 'ci', label: 'Change interval', class: 'num', value: (v) => v.changeCiLower, render: (v) => changeInterval(v.changeCiLower, v.changeCiUpper) },
      { key: 'outcome', label: 'Outcome', value: (v) => v.outcome, render: (v) => badge(v.outcome, outcomeKinds) },
      marginColumn,
    ],
  });
}

/** The changes' 95% interval, e.g. "[+19.0%, +23.0%]". */
export const changeInterval = (lower, upper) => (lower === null || lower === undefined ? '–' : `[${fmtPercent(pct(lower))}, ${fmtPercent(pct(upper))}]`);

function targetTables(targets) {
  const measured = targets.filter((t) => t.outcome !== 'NotMeasured');
  return [measured.length ? targetTable(measured) : null, unmeasuredLine(targets.filter((t) => t.outcome === 'NotMeasured'), 'unmeasured-targets')];
}

// As the comment shows it: "±5%" when one margin served both, else no change within the first, a regression only
// beyond the second (the threshold widened by the series' noise). A verdict without a margin of its own for "no change"
// used its threshold for both.
function margin(v) {
  const text = (x) => `±${Math.round(x * 1000) / 10}%`;
  const [noChange, threshold] = v.noChangeMargin > 0 ? [v.noChangeMargin, v.threshold] : [v.threshold, null];
  if (!(noChange > 0)) return '–';
  const two = threshold > 0 && Math.abs(threshold - noChange) > 1e-9;
  return el('span', { title: two ? 'no change within the first; a regression must clear the second (twice the run-to-run noise)' : 'no change within it; a regression must clear it' },
    two ? `${text(noChange)} / ${text(threshold)}` : text(noChange));
}

/** The margin a verdict was judged with, for the run page's and the pull request page's tables (rows with threshold
 * and noChangeMargin, as verdicts and report rows both have them). */
export const marginColumn = { key: 'margin', label: 'Margin', class: 'num', value: (v) => v.threshold, render: margin };

function targetTable(targets) {
  return dataTable({
    id: 'targets', rows: targets,
    columns: [
      { key: 'name', label: 'Target', value: (t) => t.name },
      { key: 'outcome', label: 'Outcome', value: (t) => t.outcome, render: (t) => badge(t.outcome, outcomeKinds) },
      { key: 'actual', label: 'Actual', class: 'num', value: (t) => t.actual, render: (t) => fmtNumber(t.actual) },
      { key: 'limit', label: 'Limit', class: 'num', value: (t) => t.limit, render: (t) => fmtNumber(t.limit) },
      { key: 'detail', label: 'Detail', value: (t) => t.detail ?? '' },
    ],
  });
}

function resultTable(results) {
  return dataTable({
    id: 'results', rows: results, urlKeys: { sort: 'rsort', filter: 'rfilter' },
    columns: [
      { key: 'benchmark', label: 'Benchmark', value: (r) => r.benchmark },
      { key: 'measure', label: 'Measure', value: (r) => r.measure },
      { key: 'value', label: 'Value', class: 'num', value: (r) => r.value, render: (r) => fmtNumber(r.value, r.unit) },
      { key: 'ci', label: 'CI', class: 'num', value: (r) => r.ciLower, render: (r) => r.ciLower === null ? '–' : `[${fmtNumber(r.ciLower)}, ${fmtNumber(r.ciUpper)}]` },
      { key: 'n', label: 'N', class: 'num', value: (r) => r.sampleCount },
      { key: 'error', label: 'Error', value: (r) => r.error ?? '', render: (r) => (r.error ? el('span', { class: 'bad' }, r.error) : '') },
    ],
  });
}
