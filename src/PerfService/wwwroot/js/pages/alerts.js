// alerts.html?project=&state=&profile=&view=&group=&id=: alert groups (alerts whose commit ranges overlap, one row
// each, expandable to their members) or single alerts, and triage (acknowledge with a reason, mark invalid or fixed,
// link an issue) of a group or of one alert. Changes are POSTs with a Bearer token from sessionStorage.
import { api, get } from '../api.js';
import { el, $, clear, showError, timeAgo, urlState } from '../dom.js';
import { initLayout } from '../layout.js';
import { alertHeaders, alertRow } from './alert-rows.js';
import { appendGroups, groupTable } from './alert-groups.js';
import { profilesSection } from './profiles.js';

initLayout();
const filters = $('#alert-filters');
const out = $('#alerts');
const state = {
  project: urlState.get('project') || '', state: urlState.get('state') ?? 'open', profile: urlState.get('profile') || '',
  view: urlState.get('view') || 'groups', group: urlState.get('group') || '', id: urlState.get('id') || '',
};
let projects = [];

try {
  const [list, profiles] = await Promise.all([api.projects(), api.profiles()]);
  projects = list;
  const sel = (name, label, options) => el('label', {}, label, el('select', { name, id: `filter-${name}`, onchange: (e) => { state[name] = e.target.value; state.id = ''; state.group = ''; load(); } },
    options.map(([v, text]) => el('option', { value: v, selected: v === state[name] }, text))));
  clear(filters,
    sel('view', 'Show', [['groups', 'Groups (overlapping commit ranges)'], ['alerts', 'Single alerts']]),
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
  if (state.view === 'groups') params.delete('view');
  urlState.replace(params);
  try {
    if (state.id) return clear(out, await detail(state.id));
    if (state.group) return clear(out, await groupDetail(state.group));
    if (state.view === 'alerts') return clear(out, await alertList({}));
    clear(out, await groupList(), await alertList({ ungrouped: true, heading: 'Alerts in no group' }));
  } catch (e) {
    showError(out, e);
  }
}

// Groups are listed per project (the API's unit); with all projects, each visible project's newest groups.
async function groupList() {
  const slugs = state.project ? [state.project] : projects.map((p) => p.slug);
  const pages = await Promise.all(slugs.map((slug) => api.alertGroups(slug, { state: state.state, limit: 100 })));
  const byProfile = (g) => !state.profile || g.profiles.includes(state.profile);
  const groups = pages.flatMap((p) => p.items).filter(byProfile).sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  const box = el('section', { id: 'alert-groups' });
  if (!groups.length) return clear(box, el('p', { class: 'muted', id: 'no-groups' }, 'No alert groups match.'));
  const table = groupTable(groups);
  clear(box, table);
  // One project: its further pages load on demand.
  const next = slugs.length === 1 ? pages[0].next : null;
  if (next) box.append(moreButton(next, (page) => appendGroups(table.tBodies[0], page.items.filter(byProfile))));
  return box;
}

async function alertList({ ungrouped = false, heading = null }) {
  const page = await api.alerts({ project: state.project, state: state.state, profile: state.profile, limit: 100, ...(ungrouped ? { ungrouped: true } : {}) });
  if (ungrouped && !page.items.length) return '';
  const body = el('tbody', { id: 'alert-rows' });
  const table = el('table', { class: 'data alerts' }, el('thead', {}, el('tr', {}, alertHeaders.map((h) => el('th', { scope: 'col' }, h)))), body);
  appendRows(body, page);
  return heading ? el('section', { id: 'ungrouped-alerts' }, el('h2', {}, heading), table) : table;
}

function appendRows(body, page) {
  if (!page.items.length && !body.children.length) body.append(el('tr', {}, el('td', { colspan: 10, class: 'muted' }, 'No alerts match.')));
  for (const a of page.items) body.append(alertRow(a));
  if (page.next) {
    const more = el('tr', {}, el('td', { colspan: 10 }, moreButton(page.next, (next) => { more.remove(); appendRows(body, next); })));
    body.append(more);
  }
}

function moreButton(url, onPage) {
  const button = el('button', { type: 'button', class: 'secondary', onclick: async () => {
    button.remove();
    onPage(await get(url));
  } }, 'Load more');
  return button;
}

async function groupDetail(id) {
  const d = await api.alertGroup(id);
  return el('div', { id: 'group-detail' },
    el('p', {}, el('a', { href: 'alerts.html' }, '← all open alert groups')),
    el('h2', {}, `Alert group #${d.group.id} · ${d.group.project}`),
    groupTable([d.group], { expandAll: true }));
}

async function detail(id) {
  const d = await api.alert(id);
  const box = el('div', { id: 'alert-detail' });
  const render = (data) => clear(box,
    el('p', {}, el('a', { href: 'alerts.html' }, '← all open alerts'),
      data.alert.groupId ? [' · ', el('a', { href: `alerts.html?group=${data.alert.groupId}` }, `its group #${data.alert.groupId}`)] : null),
    el('table', { class: 'data alerts' }, el('tbody', {}, alertRow(data.alert))),
    el('h2', {}, 'History'),
    data.events.length ? el('ol', { class: 'events' }, data.events.map((e) => el('li', {},
      el('strong', {}, `${e.fromState ?? '–'} → ${e.toState}`), ` by ${e.actor}, ${timeAgo(e.at)}`, e.reason ? el('blockquote', {}, e.reason) : null)))
      : el('p', { class: 'muted' }, 'No changes yet.'),
    ['ChangePoint', 'Target'].includes(data.alert.kind) ? profilesSection(() => api.alertProfiles(id)) : null);
  render(d);
  box.addEventListener('triaged', (e) => render(e.detail));
  return box;
}
