// pr.html?project=slug&pr=42: the runs of a pull request, and the latest head run's verdicts and targets.
import { api, getToken } from '../api.js';
import { el, $, clear, showError, shortSha, timeAgo, urlState } from '../dom.js';
import { initLayout, askToken } from '../layout.js';
import { renderRun } from './run-view.js';
import { regressionCharts } from './pr-charts.js';

initLayout();
const container = $('#pr');
const project = urlState.get('project');
const pr = urlState.get('pr');

if (!project || !/^\d+$/.test(pr || '')) {
  showError(container, new Error('Give a project and a pull request: pr.html?project=slug&pr=42'));
} else {
  document.title = `PR #${pr} · ${project} · PerfService`;
  try {
    const runs = (await api.runs(project, { pr, limit: 200 })).items;
    const head = runs.find((r) => r.role === 'head') ?? runs[0];
    const view = el('div', { id: 'run' });
    const report = await api.pullReport(project, pr).catch(() => null);
    const history = report ? regressionCharts(report) : null;
    clear(container,
      el('h1', {}, `Pull request #${pr}`, el('span', { class: 'muted' }, ` · ${project}`)),
      report?.awaitingApprovalLabel ? approval(report) : null,
      history,
      runs.length ? el('details', {}, el('summary', {}, runs.length === 1 ? '1 run' : `${runs.length} runs`), el('ul', {}, runs.map((r) => el('li', {},
        el('a', { href: `run.html?id=${r.id}` }, `#${r.id}`), ` ${r.role} round ${r.round} · ${shortSha(r.commit)} · ${r.profile} · ${r.suite} · ${timeAgo(r.createdAt)}`))))
        : el('p', { class: 'muted' }, 'No runs for this pull request yet.'),
      view);
    history?.draw();
    if (head) {
      view.append(el('h2', {}, 'Latest head run ', el('a', { href: `run.html?id=${head.id}` }, `#${head.id}`)));
      const body = el('div');
      view.append(body);
      await renderRun(body, head.id, { heading: false });
    }
  } catch (e) {
    showError(container, e);
  }
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
