// pr.html?project=slug&pr=42: the runs of a pull request, and the latest head run's verdicts and targets.
import { api } from '../api.js';
import { el, $, clear, showError, shortSha, timeAgo, urlState } from '../dom.js';
import { initLayout } from '../layout.js';
import { renderRun } from './run-view.js';

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
    clear(container,
      el('h1', {}, `Pull request #${pr}`, el('span', { class: 'muted' }, ` · ${project}`)),
      runs.length ? el('details', {}, el('summary', {}, `${runs.length} runs`), el('ul', {}, runs.map((r) => el('li', {},
        el('a', { href: `run.html?id=${r.id}` }, `#${r.id}`), ` ${r.role} round ${r.round} · ${shortSha(r.commit)} · ${r.profile} · ${r.suite} · ${timeAgo(r.createdAt)}`))))
        : el('p', { class: 'muted' }, 'No runs for this pull request yet.'),
      view);
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
