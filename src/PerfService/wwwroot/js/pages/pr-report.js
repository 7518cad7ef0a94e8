// The pull request page's report: what the PR comment says, from the same report (GET .../pulls/{n}/report) and with
// the same counts (its summary is computed by the service, for the comment and this page alike), across every profile.
import { el, shortSha, fmtNumber, fmtPercent, badge, outcomeKinds } from '../dom.js';
import { dataTable } from '../table.js';
import { word } from '../words.js';
import { changeInterval, marginColumn } from './run-view.js';
import { unmeasuredLine } from './unmeasured.js';

const pct = (v) => (v === null || v === undefined ? null : v * 100);
const size = (r) => Math.abs(r.change ?? 0);
const checkKinds = { pending: 'info', failure: 'bad', success: 'good' };
// Up to this many rows a table needs no filter box.
const few = 10;

/** The verdict first: counts over every profile, then each profile's, the head and base, the pending profiles. */
export function summary(report) {
  const { total, profiles } = report.summary;
  const groups = [...new Map(report.rows.filter((r) => r.alertGroupId).map((r) => [r.alertGroupId, r])).keys()];
  return el('section', { id: 'pr-summary', class: 'card' },
    el('p', { class: 'verdict', title: report.check.description }, 'Check ', badge(report.check.state, checkKinds), ' ',
      total.isEmpty ? 'No benchmark results for this pull request yet.' : el('strong', {}, total.text)),
    profiles.length > 1 ? el('ul', { class: 'profiles' }, profiles.map((p) => el('li', { dataset: { profile: p.profile } },
      el('span', { class: 'mono' }, p.profile), `: ${p.counts.text}`))) : null,
    report.fromSubmissions ? el('p', { id: 'from-submissions' }, 'Results posted by a CI job, not measured by PerfService’s agents (status ',
      el('code', {}, report.statusContext), ').') : null,
    report.pendingProfiles.length ? el('p', {}, `Still benchmarking on ${report.pendingProfiles.join(', ')}: this page shows what has finished.`) : null,
    report.disturbances?.length ? el('ul', { id: 'pr-disturbances', class: 'muted' }, report.disturbances.map((d) =>
      el('li', { dataset: { profile: d.profile } }, el('span', { class: 'mono' }, d.profile), `: ${d.said}.`))) : null,
    el('p', { class: 'muted' }, 'Head ', el('span', { class: 'mono', title: report.headCommit }, shortSha(report.headCommit)),
      report.baseCommit ? [' compared with base ', el('span', { class: 'mono', title: report.baseCommit }, shortSha(report.baseCommit))] : null,
      groups.map((g) => [' · ', el('a', { href: `alerts.html?${new URLSearchParams({ group: g })}` }, `alert group #${g}`)])));
}

/** Regressions (largest first, acknowledged last) and improvements of every profile: the comment's first table. */
export function changes(report) {
  const rows = changedRows(report);
  if (!rows.length) return null;
  return el('section', { id: 'pr-changes' }, el('h2', {}, 'Changes'),
    dataTable({ id: 'changes', rows, urlKeys: { sort: 'csort', filter: 'cfilter' }, columns: [...rowColumns, outcomeColumn], toolbar: rows.length > few }),
    historyNote(rows));
}

const changedRows = (report) => report.rows.filter((r) => r.outcome === 'Regression' || r.outcome === 'Improvement')
  .sort((a, b) => (a.outcome === b.outcome ? 0 : a.outcome === 'Regression' ? -1 : 1) || (a.acknowledged - b.acknowledged) || size(b) - size(a));

/** Results a CI job posted itself beside the agents': their own counts, status and changes, apart from the verdict. */
export function submittedSection(report) {
  const s = report.submitted;
  if (!s) return null;
  const rows = changedRows(s);
  return el('section', { id: 'pr-submitted', class: 'card' }, el('h2', {}, 'Submitted from CI'),
    el('p', { class: 'muted' }, 'Posted by a CI job, not measured by PerfService’s agents: they do not count in the verdict above (status ',
      el('code', {}, s.statusContext), ').'),
    el('p', { class: 'verdict' }, badge(s.check.state, checkKinds), ' ',
      s.summary.total.isEmpty ? 'No results yet.' : el('strong', {}, s.summary.total.text),
      ' · head ', el('span', { class: 'mono', title: s.headCommit }, shortSha(s.headCommit))),
    rows.length ? dataTable({ id: 'submitted-changes', rows, urlKeys: { sort: 'ssort', filter: 'sfilter' }, columns: [...rowColumns, outcomeColumn], toolbar: rows.length > few }) : null);
}

/** Failed targets, then everything else folded away as the comment does: unchanged and inconclusive rows, met and
 * at-risk targets, and one line for the targets no run measured. */
export function targetsAndOthers(report) {
  const failed = report.targets.filter((t) => t.state === 'Fail');
  const rows = report.rows.filter((r) => r.outcome === 'NoChange' || r.outcome === 'Inconclusive');
  const judged = report.targets.filter((t) => t.state === 'Pass' || t.state === 'AtRisk');
  const unmeasured = report.targets.filter((t) => t.state === 'NotMeasured');
  const count = rows.length + judged.length + unmeasured.length;
  return [
    failed.length ? el('section', { id: 'pr-failed-targets' }, el('h2', {}, 'Failed targets'), targetTable('failed-targets', failed)) : null,
    count ? el('details', { id: 'pr-others', class: 'others' },
      el('summary', {}, count === 1 ? '1 other result' : `${count} other results`),
      rows.length ? dataTable({ id: 'other-rows', rows, columns: [...rowColumns, reasonColumn], toolbar: rows.length > few }) : null,
      rows.length ? historyNote(rows) : null,
      judged.length ? targetTable('other-targets', judged) : null,
      unmeasuredLine(unmeasured, 'unmeasured-targets')) : null,
  ];
}

const benchmark = (r) => [r.explorerPath ? el('a', { href: r.explorerPath }, r.benchmark) : r.benchmark,
  r.baselineFromHistory ? ' †' : null, r.outcome === 'Regression' && r.acknowledged ? el('span', { class: 'muted' }, ' (acknowledged)') : null,
  r.profilePath ? [' · ', el('a', { href: r.profilePath, class: 'flame-link' }, 'flame graph')] : null];

// One column per figure the comment shows, bar the p-value (see run-view.js).
const rowColumns = [
  { key: 'benchmark', label: 'Benchmark', value: (r) => r.benchmark, render: benchmark },
  { key: 'measure', label: 'Measure', value: (r) => r.measure },
  { key: 'profile', label: 'Profile', value: (r) => r.profile },
  { key: 'base', label: 'Base', class: 'num', value: (r) => r.baseValue, render: (r) => fmtNumber(r.baseValue, r.unit) },
  { key: 'head', label: 'Head', class: 'num', value: (r) => r.headValue, render: (r) => fmtNumber(r.headValue, r.unit) },
  { key: 'change', label: 'Change', class: 'num', value: (r) => r.change, render: (r) => fmtPercent(pct(r.change)) },
  { key: 'ci', label: 'Change interval', class: 'num', value: (r) => r.changeCiLower, render: (r) => changeInterval(r.changeCiLower, r.changeCiUpper) },
  marginColumn,
];
const outcomeColumn = { key: 'outcome', label: 'Outcome', value: (r) => r.outcome, render: (r) => badge(r.outcome, outcomeKinds) };
const reasonColumn = { key: 'outcome', label: 'Outcome', value: (r) => r.outcome,
  render: (r) => [badge(r.outcome, outcomeKinds), r.reason ? el('span', { class: 'muted' }, ` ${r.reason}`) : null] };

function historyNote(rows) {
  return rows.some((r) => r.baselineFromHistory) ? el('p', { class: 'muted' },
    '† No base was measured alongside head: compared with the base branch’s recent runs on the same profile, so drift between runs is not cancelled out.') : null;
}

function targetTable(id, targets) {
  return dataTable({
    id, rows: targets, toolbar: targets.length > few,
    columns: [
      { key: 'name', label: 'Target', value: (t) => t.name, render: (t) => [t.name, t.state === 'Fail' && t.acknowledged ? el('span', { class: 'muted' }, ' (acknowledged)') : null] },
      { key: 'profile', label: 'Profile', value: (t) => t.profile },
      { key: 'state', label: 'State', value: (t) => word(t.state), render: (t) => badge(t.state, outcomeKinds) },
      { key: 'detail', label: 'Figures', value: (t) => t.detail ?? '' },
    ],
  });
}
