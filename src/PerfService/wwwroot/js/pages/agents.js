// Agents and jobs: who is online (seen in the last 2 minutes), what runs now, the queue, and recent failures with logs.
import { api } from '../api.js';
import { el, $, clear, showError, shortSha, timeAgo, badge, outcomeKinds } from '../dom.js';
import { initLayout } from '../layout.js';
import { word } from '../words.js';

initLayout();
const ONLINE_MS = 2 * 60 * 1000;

async function load() {
  try {
    const [agents, running, queued, failed] = await Promise.all([
      api.agents(), api.jobs({ state: 'Running', limit: 100 }), api.jobs({ state: 'Queued', limit: 100 }), api.jobs({ state: 'Failed', limit: 20 })]);
    const now = Date.now();
    clear($('#agents'), agents.length ? table(['Agent', 'Profile', 'Status', 'Last seen', 'Job'], agents.map((a) => {
      const online = now - new Date(a.lastSeenAt).getTime() < ONLINE_MS;
      return [
        el('span', {}, el('span', { class: `dot ${online ? 'dot-on' : 'dot-off'}`, 'aria-hidden': 'true' }), a.name),
        [a.profile, a.profileMismatch ? badge('mismatch', { mismatch: 'warn' }) : null],
        badge(online ? 'online' : 'offline', { online: 'good', offline: 'neutral' }),
        el('span', { title: a.lastSeenAt }, timeAgo(a.lastSeenAt, now)),
        a.runningJobId ? `#${a.runningJobId}` : '–',
      ];
    }), 'agent-table') : el('p', { class: 'muted' }, 'No agent has registered yet.'));
    clear($('#running'), jobTable(running, now, (j) => [j.agent ?? '–', j.progress ?? '', j.startedAt ? timeAgo(j.startedAt, now) : '–'], ['Agent', 'Progress', 'Started']));
    clear($('#queue'), jobTable(queued, now, (j) => [String(j.priority), timeAgo(j.createdAt, now)], ['Priority', 'Queued']));
    clear($('#failures'), jobTable(failed, now, (j) => [j.reason ?? '', j.finishedAt ? timeAgo(j.finishedAt, now) : '–', logButton(j)], ['Reason', 'Finished', 'Log']));
  } catch (e) {
    showError($('#agents'), e);
  }
}

function jobTable(jobs, now, extra, extraHeads) {
  if (!jobs.length) return el('p', { class: 'muted' }, 'None.');
  return table(['Job', 'Project', 'Kind', 'Commit', 'Profile', 'Suites', 'State', ...extraHeads], jobs.map((j) => [
    `#${j.id}`, j.project, j.pullRequest ? `${word(j.kind)} (PR #${j.pullRequest})` : word(j.kind),
    el('span', { class: 'mono', title: j.commit }, shortSha(j.commit)), j.profile, (j.suites || []).join(', ') || 'all',
    badge(j.state, outcomeKinds), ...extra(j)]));
}

function logButton(job) {
  const pre = el('pre', { class: 'log', hidden: true });
  const button = el('button', { type: 'button', class: 'small secondary', onclick: async () => {
    if (pre.hidden && !pre.textContent) {
      try {
        pre.textContent = (await api.job(job.id)).log || '(empty log)';
      } catch (e) {
        pre.textContent = e.message;
      }
    }
    pre.hidden = !pre.hidden;
    button.textContent = pre.hidden ? 'Show log' : 'Hide log';
  } }, 'Show log');
  return el('div', {}, button, pre);
}

function table(heads, rows, id) {
  return el('table', { class: 'data', id }, el('thead', {}, el('tr', {}, heads.map((h) => el('th', { scope: 'col' }, h)))),
    el('tbody', {}, rows.map((cells) => el('tr', {}, cells.map((c) => el('td', {}, c))))));
}

await load();
setInterval(load, 15000);
