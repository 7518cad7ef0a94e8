// Service status for admins (GET /api/v1/service/status): the same essentials as the Prometheus metrics, so a team
// without Prometheus still sees the analysis backlog, failed background jobs, queued benchmark jobs, agents online and
// GitHub publication outcomes.
import { api, ApiError, getToken } from '../api.js';
import { el, $, clear, showError, badge, fmtNumber, outcomeKinds } from '../dom.js';
import { initLayout, askToken } from '../layout.js';

initLayout();

/** Seconds as "12 s", "4.5 min", "2.1 h". */
function age(seconds) {
  if (!seconds) return '–';
  if (seconds < 90) return `${seconds.toFixed(0)} s`;
  if (seconds < 5400) return `${(seconds / 60).toFixed(1)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

function needToken() {
  clear($('#background'), el('p', { id: 'service-token' }, 'This page needs an admin token (bound to no project). ',
    el('button', { type: 'button', class: 'link', onclick: () => askToken('Paste an admin API token.').then(load) }, 'Set token')));
}

/** Puts a parked run back in the analysis queue (after its cause is fixed), then shows the page again. */
function retryButton(runId) {
  return el('button', {
    type: 'button', class: 'retry-analysis', 'data-run': String(runId),
    onclick: async (e) => {
      e.target.disabled = true;
      try {
        await api.retryAnalysis(runId);
        await load();
      } catch (err) {
        e.target.disabled = false;
        showError($('#analysis'), err);
      }
    },
  }, 'Retry');
}

async function load() {
  // Without a token the answer is a certain 401: ask first rather than make the request.
  if (!getToken()) {
    needToken();
    return;
  }
  try {
    const s = await api.serviceStatus();
    const b = s.background;
    clear($('#background'), table(['Waiting', 'Scheduled (retries, GitHub waits)', 'Running', 'Failed (retries exhausted)', 'Succeeded', 'Workers (servers)'],
      [[fmtNumber(b.enqueued), fmtNumber(b.scheduled), fmtNumber(b.processing),
        b.failed ? badge(String(b.failed), { [String(b.failed)]: 'bad' }) : '0', fmtNumber(b.succeeded),
        b.servers ? String(b.servers) : badge('none', { none: 'bad' })]], 'background-table'));
    const a = s.analysis;
    clear($('#analysis'), table(['Runs waiting for analysis', 'Oldest waiting (analysis lag)'],
      [[a.runs ? fmtNumber(a.runs) : '0', a.runs && a.oldestSeconds > 300 ? badge(age(a.oldestSeconds), { [age(a.oldestSeconds)]: 'bad' }) : age(a.oldestSeconds)]],
      'analysis-table'),
    a.parked
      ? [el('p', { id: 'parked-count' }, badge(`${fmtNumber(a.parked)} parked`, { [`${fmtNumber(a.parked)} parked`]: 'bad' }),
        ' runs whose analysis failed every attempt; the runs behind them were analysed. Newest first:'),
      table(['Run', 'Project', 'Stored', 'Parked', 'Attempts', 'Error', ''], a.parkedRuns.map((p) => [
        el('a', { href: `run.html?id=${p.runId}` }, `#${p.runId}`), p.project, new Date(p.queuedAt).toLocaleString(),
        new Date(p.parkedAt).toLocaleString(), String(p.attempts), el('code', {}, p.error ?? ''), retryButton(p.runId)]), 'parked-table')]
      : el('p', { class: 'muted', id: 'parked-count' }, 'No run is parked: every analysis succeeded or is still being tried.'));
    clear($('#queues'), s.queues.some((q) => q.length > 0)
      ? table(['Queue', 'Waiting', 'Oldest waiting (analysis lag)'], s.queues.map((q) => [q.queue, fmtNumber(q.length), age(q.oldestSeconds)]), 'queue-table')
      : el('p', { class: 'muted' }, 'No background job is waiting.'));
    const jobs = s.jobs.filter((j) => j.count > 0);
    clear($('#jobs'), jobs.length
      ? table(['Profile', 'State', 'Jobs', 'Oldest'], jobs.map((j) => [j.profile, badge(j.state, outcomeKinds), fmtNumber(j.count), age(j.oldestSeconds)]), 'job-table')
      : el('p', { class: 'muted' }, 'No benchmark job is queued or running.'));
    clear($('#agent-profiles'), table(['Profile', 'Online', 'Registered'], s.agents.map((a) => [
      a.profile, a.registered && !a.online ? badge('0 online', { '0 online': 'bad' }) : String(a.online), String(a.registered)]), 'agent-profile-table'));
    const p = s.publishing;
    const outcomes = Object.entries(p.outcomes);
    clear($('#publishing'), el('p', { class: 'muted' }, `Counted by the process answering this page since ${new Date(p.since).toLocaleString()}; `
      + 'Prometheus sums every replica.'), outcomes.length
      ? table(['Outcome', 'Publications'], outcomes.map(([o, n]) => [o === 'failed' ? badge(o, { failed: 'bad' }) : o, fmtNumber(n)]), 'publish-table')
      : el('p', { class: 'muted' }, 'Nothing published to GitHub yet.'),
    el('p', { id: 'rate-limits' }, `Rate-limit waits: ${fmtNumber(p.rateLimitWaits)} (${age(p.rateLimitWaitSeconds)} in all).`));
  } catch (e) {
    if (e instanceof ApiError && (e.status === 401 || e.status === 403)) {
      needToken();
      return;
    }
    showError($('#background'), e);
  }
}

function table(heads, rows, id) {
  return el('table', { class: 'data', id }, el('thead', {}, el('tr', {}, heads.map((h) => el('th', { scope: 'col' }, h)))),
    el('tbody', {}, rows.map((cells) => el('tr', {}, cells.map((c) => el('td', {}, c))))));
}

await load();
setInterval(load, 15000);
