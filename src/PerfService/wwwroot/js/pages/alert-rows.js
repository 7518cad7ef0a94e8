// One alert as a table row with its triage buttons; shared by the alert list, a group's members and an alert's page.
import { getToken } from '../api.js';
import { el, shortSha, timeAgo, badge, outcomeKinds } from '../dom.js';
import { askToken } from '../layout.js';
import { word } from '../words.js';
import { openTriage } from './alert-triage.js';

export const alertHeaders = ['#', 'Project', 'Kind', 'State', 'Benchmark', 'Profile', 'Commits', 'Summary', 'Updated', ''];

export const commitRange = (from, to) => (from ? `${shortSha(from)}…${shortSha(to)}` : to ? shortSha(to) : '–');

// onChanged(updatedDetail) runs after a triage; by default the row replaces itself.
export function alertRow(a, onChanged) {
  const tr = el('tr', { dataset: { alert: a.id } },
    el('td', {}, el('a', { href: `alerts.html?id=${a.id}` }, `#${a.id}`)),
    el('td', {}, a.project),
    el('td', {}, word(a.kind)),
    el('td', {}, badge(a.state, outcomeKinds)),
    el('td', {}, a.benchmarkId ? el('a', { href: `explorer.html?${new URLSearchParams({ project: a.project, b: a.benchmarkId, measure: a.measure ?? '', ...(a.profile ? { profile: a.profile } : {}) })}` }, a.benchmark) : '–',
      a.measure ? el('span', { class: 'muted' }, ` · ${a.measure}`) : null),
    el('td', { class: 'nowrap' }, a.profile ?? '–'),
    el('td', {}, el('span', { class: 'mono' }, commitRange(a.fromCommit, a.toCommit)),
      a.foundAfter != null ? el('div', { class: 'muted', title: 'results of the series after the change when the alert was raised' }, `found ${a.foundAfter} result${a.foundAfter === 1 ? '' : 's'} later`) : null),
    el('td', {}, a.summary, a.issueUrl ? [' ', el('a', { href: a.issueUrl, rel: 'noopener noreferrer', target: '_blank' }, 'issue')] : null),
    el('td', { title: a.updatedAt }, timeAgo(a.updatedAt)),
    el('td', { class: 'actions' }, triageButtons(a, (to) => triage(a, to, (updated) => (onChanged ? onChanged(updated) : tr.replaceWith(alertRow(updated.alert)))))));
  return tr;
}

export function triageButtons(item, onAction) {
  const act = (label, to, cls = 'secondary') => el('button', { type: 'button', class: `small ${cls}`, dataset: { action: to }, onclick: () => onAction(to) }, label);
  return [
    item.state !== 'Acknowledged' ? act('Acknowledge', 'acknowledged', '') : null,
    item.state !== 'Invalid' ? act('Invalid', 'invalid') : null,
    item.state !== 'Fixed' ? act('Fixed', 'fixed') : null,
    item.state !== 'Active' ? act('Reopen', 'active') : null,
    act('Link issue', item.state.toLowerCase()),
  ];
}

export async function triage(item, to, onDone, options) {
  if (!getToken() && !(await askToken('Triage needs a token with scope read or admin. It stays in this tab only.'))) return;
  openTriage(item, to, onDone, options);
}
