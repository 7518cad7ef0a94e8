// alerts.html?project=&state=&profile=&id=: alert list and triage (acknowledge with a reason, mark invalid or fixed,
// link an issue). Changes are POSTs with a Bearer token from sessionStorage.
import { api, get, getToken } from '../api.js';
import { el, $, clear, showError, shortSha, timeAgo, badge, outcomeKinds, urlState } from '../dom.js';
import { initLayout, askToken } from '../layout.js';
import { openTriage } from './alert-triage.js';

initLayout();
const filters = $('#alert-filters');
const out = $('#alerts');
const state = { project: urlState.get('project') || '', state: urlState.get('state') ?? 'open', profile: urlState.get('profile') || '', id: urlState.get('id') || '' };

try {
  const [projects, profiles] = await Promise.all([api.projects(), api.profiles()]);
  const sel = (name, label, options) => el('label', {}, label, el('select', { name, id: `filter-${name}`, onchange: (e) => { state[name] = e.target.value; state.id = ''; load(); } },
    options.map(([v, text]) => el('option', { value: v, selected: v === state[name] }, text))));
  clear(filters,
    sel('project', 'Project', [['', 'All projects'], ...projects.map((p) => [p.slug, p.name])]),
    sel('state', 'State', [['open', 'Open (active + acknowledged)'], ['', 'Any'], ['active', 'Active'], ['acknowledged', 'Acknowledged'], ['invalid', 'Invalid'], ['fixed', 'Fixed']]),
    sel('profile', 'Profile', [['', 'All profiles'], ...profiles.map((p) => [p.name, p.name])]));
  await load();
} catch (e) {
  showError(out, e);
}

async function load() {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(state)) if (v || (k === 'state' && v === '')) params.set(k, v);
  if (state.state === 'open') params.delete('state');
  urlState.replace(params);
  try {
    if (state.id) return clear(out, await detail(state.id));
    const page = await api.alerts({ project: state.project, state: state.state, profile: state.profile, limit: 100 });
    const body = el('tbody', { id: 'alert-rows' });
    clear(out, el('table', { class: 'data alerts' }, el('thead', {}, el('tr', {},
      ['#', 'Project', 'Kind', 'State', 'Benchmark', 'Profile', 'Commits', 'Summary', 'Updated', ''].map((h) => el('th', { scope: 'col' }, h)))), body));
    appendRows(body, page);
  } catch (e) {
    showError(out, e);
  }
}

function appendRows(body, page) {
  if (!page.items.length && !body.children.length) body.append(el('tr', {}, el('td', { colspan: 10, class: 'muted' }, 'No alerts match.')));
  for (const a of page.items) body.append(row(a));
  if (page.next) {
    const more = el('tr', {}, el('td', { colspan: 10 }, el('button', { type: 'button', class: 'secondary', onclick: async () => {
      more.remove();
      appendRows(body, await get(page.next));
    } }, 'Load more')));
    body.append(more);
  }
}

function row(a) {
  const tr = el('tr', { dataset: { alert: a.id } },
    el('td', {}, el('a', { href: `alerts.html?id=${a.id}` }, `#${a.id}`)),
    el('td', {}, a.project),
    el('td', {}, a.kind),
    el('td', {}, badge(a.state, outcomeKinds)),
    el('td', {}, a.benchmarkId ? el('a', { href: `explorer.html?${new URLSearchParams({ project: a.project, b: a.benchmarkId, measure: a.measure ?? '', ...(a.profile ? { profile: a.profile } : {}) })}` }, a.benchmark) : '–',
      a.measure ? el('span', { class: 'muted' }, ` · ${a.measure}`) : null),
    el('td', {}, a.profile ?? '–'),
    el('td', { class: 'mono' }, a.fromCommit ? `${shortSha(a.fromCommit)}…${shortSha(a.toCommit)}` : a.toCommit ? shortSha(a.toCommit) : '–'),
    el('td', {}, a.summary, a.issueUrl ? [' ', el('a', { href: a.issueUrl, rel: 'noopener noreferrer', target: '_blank' }, 'issue')] : null),
    el('td', { title: a.updatedAt }, timeAgo(a.updatedAt)),
    el('td', { class: 'actions' }, actions(a, (updated) => tr.replaceWith(row(updated.alert)))));
  return tr;
}

function actions(a, onDone) {
  const act = (label, to, cls = 'secondary') => el('button', { type: 'button', class: `small ${cls}`, dataset: { action: to }, onclick: () => triage(a, to, onDone) }, label);
  return [
    a.state !== 'Acknowledged' ? act('Acknowledge', 'acknowledged', '') : null,
    a.state !== 'Invalid' ? act('Invalid', 'invalid') : null,
    a.state !== 'Fixed' ? act('Fixed', 'fixed') : null,
    a.state !== 'Active' ? act('Reopen', 'active') : null,
    act('Link issue', a.state.toLowerCase()),
  ];
}

async function triage(alert, to, onDone) {
  if (!getToken() && !(await askToken('Triage needs a token with scope read or admin. It stays in this tab only.'))) return;
  openTriage(alert, to, onDone);
}

async function detail(id) {
  const d = await api.alert(id);
  const box = el('div', { id: 'alert-detail' });
  const render = (data) => clear(box,
    el('p', {}, el('a', { href: 'alerts.html' }, '← all open alerts')),
    el('table', { class: 'data alerts' }, el('tbody', {}, row(data.alert))),
    el('h2', {}, 'History'),
    data.events.length ? el('ol', { class: 'events' }, data.events.map((e) => el('li', {},
      el('strong', {}, `${e.fromState ?? '–'} → ${e.toState}`), ` by ${e.actor}, ${timeAgo(e.at)}`, e.reason ? el('blockquote', {}, e.reason) : null)))
      : el('p', { class: 'muted' }, 'No changes yet.'));
  render(d);
  box.addEventListener('triaged', (e) => render(e.detail));
  return box;
}
