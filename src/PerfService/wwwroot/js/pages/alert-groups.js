// Alert groups: alerts of one project whose commit ranges overlap, one row each, expandable to the members, triaged
// as one (the change applies to every member) or member by member.
import { api } from '../api.js';
import { el, clear, timeAgo, badge, outcomeKinds, fmtPercent } from '../dom.js';
import { word } from '../words.js';
import { alertHeaders, alertRow, commitRange, triageButtons, triage } from './alert-rows.js';

const headers = ['', 'Group', 'Project', 'State', 'Commits', 'Covers', 'Largest', 'Median', 'Updated', ''];

export function groupTable(groups, { expandAll = false } = {}) {
  const body = el('tbody', { id: 'group-rows' });
  const table = el('table', { class: 'data alert-groups' }, el('thead', {}, el('tr', {}, headers.map((h) => el('th', { scope: 'col' }, h)))), body);
  appendGroups(body, groups, expandAll);
  return table;
}

export function appendGroups(body, groups, expandAll = false) {
  for (const g of groups) {
    const tr = groupRow(g);
    body.append(tr);
    if (expandAll) expand(tr, g);
  }
}

// The explorer on the group's benchmarks and profiles (its most frequent measure).
export function explorerLink(g) {
  const measures = g.benchmarks.map((b) => b.measure).filter(Boolean);
  const measure = measures.sort((x, y) => measures.filter((m) => m === y).length - measures.filter((m) => m === x).length)[0];
  const params = new URLSearchParams({ project: g.project, b: [...new Set(g.benchmarks.map((b) => b.id))].join(',') });
  if (measure) params.set('measure', measure);
  for (const p of g.profiles) params.append('profile', p);
  return `explorer.html?${params}`;
}

const change = (v) => (v == null ? '–' : fmtPercent(v * 100));

function covers(g) {
  const names = g.benchmarks.map((b) => b.key);
  const plural = (n, noun) => `${n} ${noun}${n === 1 ? '' : 's'}`;
  return [
    el('div', {}, `${plural(g.benchmarks.length, 'benchmark')} · ${plural(g.profiles.length, 'profile')}`, el('span', { class: 'muted' }, ` · ${g.kinds.map(word).join(', ')}`)),
    el('div', { class: 'muted small', title: names.join('\n') }, names.slice(0, 3).join(', ') + (names.length > 3 ? `, … (${names.length - 3} more)` : '')),
    g.profiles.length ? el('div', { class: 'muted small' }, g.profiles.join(', ')) : null,
  ];
}

function groupRow(g) {
  const toggle = el('button', { type: 'button', class: 'small secondary toggle', 'aria-expanded': 'false', title: 'Show the alerts of this group' },
    `▸ ${g.members} alert${g.members === 1 ? '' : 's'}`);
  const tr = el('tr', { class: 'group', dataset: { group: g.id } },
    el('td', {}, toggle),
    el('td', {}, el('a', { href: `alerts.html?group=${g.id}` }, `#${g.id}`)),
    el('td', {}, g.project),
    el('td', {}, badge(g.state, outcomeKinds)),
    el('td', { class: 'mono nowrap' }, commitRange(g.fromCommit, g.toCommit)),
    el('td', {}, covers(g)),
    el('td', { class: 'num' }, change(g.largestChange)),
    el('td', { class: 'num' }, change(g.medianChange)),
    el('td', { title: g.updatedAt }, timeAgo(g.updatedAt)),
    el('td', { class: 'actions' },
      el('div', { class: 'links small' },
        g.benchmarks.length ? el('a', { class: 'explorer-link', href: explorerLink(g), title: 'The group\'s benchmarks and profiles in the explorer' }, 'Open in explorer') : null,
        g.issueUrl ? [' · ', el('a', { class: 'issue', href: g.issueUrl, rel: 'noopener noreferrer', target: '_blank' }, 'issue')] : null),
      triageButtons(g, (to) => triage(g, to, (updated) => refresh(tr, updated), { group: true }))));
  toggle.addEventListener('click', () => (toggle.getAttribute('aria-expanded') === 'true' ? collapse(tr) : expand(tr, g)));
  return tr;
}

async function expand(tr, g) {
  collapse(tr);
  const cell = el('td', { colspan: headers.length }, el('p', { class: 'muted' }, 'Loading…'));
  tr.after(el('tr', { class: 'group-members', dataset: { members: g.id } }, cell));
  tr.querySelector('.toggle').setAttribute('aria-expanded', 'true');
  tr.querySelector('.toggle').textContent = `▾ ${g.members} alert${g.members === 1 ? '' : 's'}`;
  try {
    const detail = await api.alertGroup(g.id);
    clear(cell, members(tr, detail));
  } catch (e) {
    clear(cell, el('p', { class: 'error' }, e.message));
  }
}

function collapse(tr) {
  tr.nextElementSibling?.matches('tr.group-members') && tr.nextElementSibling.remove();
  const toggle = tr.querySelector('.toggle');
  toggle.setAttribute('aria-expanded', 'false');
  toggle.textContent = toggle.textContent.replace('▾', '▸');
}

function members(tr, detail) {
  // A member triaged alone may change the group's state: the group row is read again.
  const onChanged = async () => refresh(tr, await api.alertGroup(detail.group.id));
  return el('table', { class: 'data compact alerts' }, el('thead', {}, el('tr', {}, alertHeaders.map((h) => el('th', { scope: 'col' }, h)))),
    el('tbody', {}, detail.alerts.map((a) => alertRow(a, onChanged))));
}

function refresh(tr, detail) {
  const open = tr.querySelector('.toggle').getAttribute('aria-expanded') === 'true';
  const fresh = groupRow(detail.group);
  collapse(tr);
  tr.replaceWith(fresh);
  if (open) {
    fresh.after(el('tr', { class: 'group-members', dataset: { members: detail.group.id } }, el('td', { colspan: headers.length }, members(fresh, detail))));
    fresh.querySelector('.toggle').setAttribute('aria-expanded', 'true');
    fresh.querySelector('.toggle').textContent = fresh.querySelector('.toggle').textContent.replace('▸', '▾');
  }
}
