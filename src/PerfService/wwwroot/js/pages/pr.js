// pr.html?project=slug&pr=42: the pull request's verdict across every profile, as its comment says it, then its runs.
import { api, getToken } from '../api.js';
import { el, $, clear, showError, shortSha, timeAgo, urlState } from '../dom.js';
import { initLayout, askToken } from '../layout.js';
import { dataTable } from '../table.js';
import { word } from '../words.js';
import { regressionCharts } from './pr-charts.js';
import { summary, changes, targetsAndOthers, submittedSection } from './pr-report.js';
import { profilesSection } from './profiles.js';

initLayout();
const container = $('#pr');
const project = urlState.get('project');
const pr = urlState.get('pr');

if (!project || !/^\d+$/.test(pr || '')) {
  showError(container, new Error('Give a project and a pull request: pr.html?project=slug&pr=42'));
} else {
  document.title = `PR #${pr} · ${project} · PerfService`;
  try {
    const [runs, report] = await Promise.all([
      api.runs(project, { pr, limit: 200 }).then((page) => page.items),
      api.pullReport(project, pr).catch((e) => (e.status === 404 ? null : Promise.reject(e)))]);
    const history = report ? regressionCharts(report) : null;
    clear(container,
      el('h1', {}, `Pull request #${pr}`, el('span', { class: 'muted' }, ` · ${project}`)),
      report?.awaitingApprovalLabel ? approval(report) : null,
      report ? [summary(report), changes(report), history, targetsAndOthers(report), submittedSection(report)]
        : el('p', { class: 'muted' }, 'No report yet: no benchmark job has run for this pull request.'),
      profilesSection(() => api.pullProfiles(project, pr), (benchmarks, profile) => api.requestProfiles(project, pr, benchmarks, profile)),
      runList(runs));
    history?.draw();
  } catch (e) {
    showError(container, e);
  }
}

/** The runs behind the report, newest first, with each profile's latest head run named first. */
function runList(runs) {
  if (!runs.length) return el('p', { class: 'muted' }, 'No runs for this pull request yet.');
  const latest = [...new Map(runs.filter((r) => r.role === 'head').reverse().map((r) => [r.profile, r])).values()]
    .sort((a, b) => a.profile.localeCompare(b.profile));
  return el('section', { id: 'pr-runs' }, el('h2', {}, runs.length === 1 ? '1 run' : `${runs.length} runs`),
    latest.length ? el('p', { id: 'latest-head-runs' }, 'Latest head run: ',
      latest.map((r, i) => [i ? ' · ' : '', el('a', { href: `run.html?id=${r.id}` }, `#${r.id}`), ` on ${r.profile}`])) : null,
    dataTable({
      id: 'runs', rows: runs, toolbar: runs.length > 10,
      columns: [
        { key: 'id', label: 'Run', value: (r) => r.id, render: (r) => el('a', { href: `run.html?id=${r.id}` }, `#${r.id}`) },
        { key: 'role', label: 'Role', value: (r) => `${word(r.role)} round ${r.round}` },
        { key: 'commit', label: 'Commit', value: (r) => r.commit, render: (r) => el('span', { class: 'mono', title: r.commit }, shortSha(r.commit)) },
        { key: 'profile', label: 'Profile', value: (r) => r.profile },
        { key: 'suite', label: 'Suite', value: (r) => r.suite },
        { key: 'created', label: 'Created', value: (r) => r.createdAt, render: (r) => el('span', { title: r.createdAt }, timeAgo(r.createdAt)) },
      ],
    }));
}

// An outside contributor's head waits for a maintainer: the label on GitHub, or this button (an admin token; the
// service refuses any other, as it does for every admin action).
function approval(report) {
  const message = el('span', { id: 'approval-result', role: 'status' });
  const button = el('button', { type: 'button', id: 'approve', onclick: async () => {
    if (!getToken() && !(await askToken('Approving needs a token with scope admin. It stays in this tab only.'))) return;
    button.disabled = true;
    try {
      const done = await api.approvePull(project, pr, report.headCommit);
      clear(message, `Approved ${shortSha(done.headCommit)}: ${done.jobs} jobs queued.`);
      button.remove();
    } catch (e) {
      button.disabled = false;
      // 409: the author pushed since this page loaded; the message names the new head, which must be read first.
      clear(message, e.status === 403 || e.status === 401 ? 'Approving needs an admin token.'
        : e.status === 409 ? `${e.message} (reload the page to see it)` : e.message);
    }
  } }, 'Approve');
  return el('section', { id: 'approval', class: 'callout' },
    el('p', {}, el('strong', {}, 'Awaiting approval. '),
      `This pull request comes from outside the project: its head ${shortSha(report.headCommit)} runs on the agents only after a maintainer `,
      `has read it and approves it (the label `, el('code', {}, report.awaitingApprovalLabel), ' on GitHub, or this button).'),
    el('p', {}, button, ' ', message));
}
