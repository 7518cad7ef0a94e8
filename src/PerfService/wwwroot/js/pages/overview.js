// Projects overview: every visible project with its latest run per profile and suite, open alerts, missed targets and
// every target's latest state per profile on the default branch.
import { api } from '../api.js';
import { el, $, clear, showError, shortSha, timeAgo, fmtNumber, badge, outcomeKinds } from '../dom.js';
import { initLayout } from '../layout.js';
import { word } from '../words.js';
import { unmeasuredLine } from './unmeasured.js';

initLayout();
const container = $('#projects');

try {
  const projects = await api.projects();
  if (!projects.length) {
    clear(container, el('p', { class: 'muted' }, 'No projects yet (or none visible without a token). Create one with POST /api/v1/projects.'));
  } else {
    clear(container, ...projects.map((p) => projectCard(p)));
  }
} catch (e) {
  showError(container, e);
}

function projectCard(project) {
  const body = el('div', { class: 'card-body' }, el('p', { class: 'muted' }, 'Loading…'));
  const explore = `explorer.html?${new URLSearchParams({ project: project.slug })}`;
  const card = el('article', { class: 'card project-card', dataset: { project: project.slug } },
    el('header', {},
      el('h2', {}, el('a', { href: explore }, project.name)),
      project.isPublic ? null : badge('private', { private: 'warn' }),
      el('span', { class: 'muted' }, project.slug)),
    body);
  api.overview(project.slug).then((o) => clear(body, ...overviewBody(o)), (e) => showError(body, e));
  return card;
}

function overviewBody(o) {
  const slug = o.project.slug;
  const alertsLink = (state, n, label) => el('a', { href: `alerts.html?${new URLSearchParams({ project: slug, state })}`, class: `stat ${n ? `stat-${state}` : ''}` },
    el('strong', {}, String(n)), label);
  const stats = el('div', { class: 'stats' },
    alertsLink('active', o.openAlerts, 'open alerts'),
    alertsLink('acknowledged', o.acknowledgedAlerts, 'acknowledged'),
    el('span', { class: `stat ${o.failedTargets.length ? 'stat-active' : ''}` }, el('strong', {}, String(o.failedTargets.length)), 'failed targets'));

  const runs = o.latestRuns.length ? el('table', { class: 'data compact' },
    el('thead', {}, el('tr', {}, ['Profile', 'Suite', 'Commit', 'Branch', 'When', 'Results'].map((h) => el('th', { scope: 'col' }, h)))),
    el('tbody', {}, o.latestRuns.map((r) => el('tr', {},
      el('td', {}, r.profile),
      el('td', {}, r.suite),
      el('td', {}, el('a', { href: `run.html?id=${r.runId}`, class: 'mono' }, shortSha(r.commit))),
      el('td', {}, r.pullRequest ? el('a', { href: `pr.html?${new URLSearchParams({ project: slug, pr: r.pullRequest })}` }, `PR #${r.pullRequest}`) : (r.branch ?? '–')),
      el('td', { title: r.createdAt }, timeAgo(r.createdAt)),
      el('td', { class: 'num' }, String(r.results), r.errors ? el('span', { class: 'bad' }, ` (${r.errors} failed)`) : null)))))
    : el('p', { class: 'muted' }, 'No runs yet.');

  const failed = o.failedTargets.length ? el('ul', { class: 'failed-targets' }, o.failedTargets.map((t) => el('li', {},
    badge('Fail', outcomeKinds), ' ', el('a', { href: `run.html?id=${t.runId}` }, t.name),
    el('span', { class: 'muted' }, ` on ${t.profile}: ${fmtNumber(t.actual)} vs limit ${fmtNumber(t.limit)}`)))) : null;

  return [stats, el('h3', {}, 'Latest runs'), runs, failed ? el('h3', {}, 'Failed targets') : null, failed,
    el('h3', {}, `Targets on ${o.project.defaultBranch}`), targetTable(o.targets ?? [])];
}

/** One row per suite and target, one column per profile: the state in that profile's latest run of the suite. A target
 * matching several benchmarks is stored once per benchmark ("name [key]"): its cell shows the worst of them. Targets
 * no profile measured are one line below the table, as on the run and pull request pages. */
function targetTable(targets) {
  if (!targets.length) return el('p', { class: 'muted' }, 'No targets evaluated yet (declare them in perf.json).');
  const rows = new Map();
  for (const t of targets) {
    // The key itself may hold brackets ("Name [Quick-net8.0]"): the target's own name ends at the first " [".
    const name = t.name.includes(' [') ? t.name.slice(0, t.name.indexOf(' [')) : t.name;
    const key = `${t.suite}\u0000${name}`;
    if (!rows.has(key)) rows.set(key, { suite: t.suite, name, byProfile: new Map() });
    const cell = rows.get(key).byProfile;
    cell.set(t.profile, [...(cell.get(t.profile) ?? []), t]);
  }
  const cell = (list) => {
    if (!list) return el('td', { class: 'muted' }, '–');
    const worst = [...list].sort((a, b) => severity(b) - severity(a))[0];
    const figures = worst.actual == null ? '' : ` ${fmtNumber(worst.actual)}${worst.limit == null ? '' : ` / ${fmtNumber(worst.limit)}`}`;
    const more = list.filter((t) => t.outcome !== 'NotMeasured').length > 1 ? ` (worst of ${list.length})` : '';
    return el('td', { class: 'target-state', title: list.map((t) => `${t.name}: ${word(t.outcome)}${t.detail ? ` (${t.detail})` : ''}`).join('\n') },
      el('a', { href: `run.html?id=${worst.runId}` }, badge(worst.outcome, outcomeKinds)), el('span', { class: 'muted' }, figures + more));
  };
  const entries = (r) => [...r.byProfile.values()].flat();
  const measured = [...rows.values()].filter((r) => entries(r).some((t) => t.outcome !== 'NotMeasured'));
  const unmeasured = [...rows.values()].filter((r) => !measured.includes(r)).flatMap(entries);
  const profiles = [...new Set(measured.flatMap(entries).map((t) => t.profile))].sort();
  return el('div', {}, measured.length ? el('div', { class: 'table-scroll' }, el('table', { class: 'data compact targets' },
    el('thead', {}, el('tr', {}, ['Suite', 'Target', ...profiles].map((h) => el('th', { scope: 'col' }, h)))),
    el('tbody', {}, measured.map((r) => el('tr', { dataset: { target: r.name } },
      el('td', {}, r.suite), el('td', {}, r.name), profiles.map((p) => cell(r.byProfile.get(p)))))))) : null,
  unmeasuredLine(unmeasured));
}

/** Fail first, then at risk, pass, and not measured: a measured state beats a benchmark that did not run. */
function severity(t) {
  return { Fail: 3, AtRisk: 2, Pass: 1 }[t.outcome] ?? 0;
}
