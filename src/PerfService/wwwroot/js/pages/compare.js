// compare.html?project=&base=&head=&profile=: any two commits (sha or prefix) or runs (run:123) side by side.
import { api } from '../api.js';
import { el, $, clear, showError, shortSha, fmtNumber, fmtPercent, urlState } from '../dom.js';
import { initLayout } from '../layout.js';
import { dataTable } from '../table.js';

initLayout();
const form = $('#compare-form');
const out = $('#compare');
const state = { project: urlState.get('project') || '', base: urlState.get('base') || '', head: urlState.get('head') || '', profile: urlState.get('profile') || '' };

try {
  const [projects, profiles] = await Promise.all([api.projects(), api.profiles()]);
  if (!state.project && projects.length) state.project = projects[0].slug;
  const input = (name, label, placeholder) => el('label', {}, label, el('input', { name, id: name, value: state[name], placeholder, required: true }));
  clear(form,
    el('label', {}, 'Project', el('select', { name: 'project', id: 'project' }, projects.map((p) => el('option', { value: p.slug, selected: p.slug === state.project }, p.name)))),
    input('base', 'Base', 'sha, prefix or run:123'),
    input('head', 'Head', 'sha, prefix or run:123'),
    el('label', {}, 'Profile', el('select', { name: 'profile', id: 'profile' }, el('option', { value: '' }, 'From the run'),
      profiles.map((p) => el('option', { value: p.name, selected: p.name === state.profile }, p.name)))),
    el('button', { type: 'submit' }, 'Compare'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const data = new FormData(form);
    for (const key of Object.keys(state)) state[key] = String(data.get(key) || '').trim();
    const params = urlState.params();
    for (const [k, v] of Object.entries(state)) { if (v) params.set(k, v); else params.delete(k); }
    urlState.replace(params);
    load();
  });
  if (state.base && state.head) await load();
} catch (e) {
  showError(out, e);
}

async function load() {
  clear(out, el('p', { class: 'muted' }, 'Comparing…'));
  try {
    const c = await api.compare(state.project, { base: state.base, head: state.head, profile: state.profile });
    const side = (label, s) => el('div', { class: 'side' }, el('h3', {}, label), el('p', {},
      s.commit ? el('span', { class: 'mono', title: s.commit }, shortSha(s.commit)) : s.spec, ` on ${s.profile} · `,
      s.runs.map((id, i) => [i ? ', ' : '', el('a', { href: `run.html?id=${id}` }, `#${id}`)])));
    clear(out, el('div', { class: 'sides' }, side('Base', c.base), side('Head', c.head)),
      c.base.profile !== c.head.profile ? el('p', { class: 'error' }, 'The two sides ran on different profiles: the numbers are not comparable.') : null,
      table(c.rows));
  } catch (e) {
    showError(out, e);
  }
}

/** Worse or better depends on the measure's direction: more time is worse, more throughput is better. */
function verdict(row) {
  if (row.base === null || row.head === null) return 'missing';
  if (row.changePercent === null || Math.abs(row.changePercent) < 2) return 'same';
  const up = row.changePercent > 0;
  return up === (row.direction === 'HigherIsBetter') ? 'better' : 'worse';
}

function table(rows) {
  return dataTable({
    id: 'compare-table', rows, urlKeys: { sort: 'sort', filter: 'filter' },
    filters: [{ key: 'show', label: 'changes', options: [['worse', 'Worse'], ['better', 'Better'], ['same', 'Within 2%'], ['missing', 'Missing on a side']], test: (r, v) => verdict(r) === v }],
    columns: [
      { key: 'benchmark', label: 'Benchmark', value: (r) => r.benchmark },
      { key: 'measure', label: 'Measure', value: (r) => r.measure },
      { key: 'base', label: 'Base', class: 'num', value: (r) => r.base, render: (r) => fmtNumber(r.base, r.unit) },
      { key: 'head', label: 'Head', class: 'num', value: (r) => r.head, render: (r) => fmtNumber(r.head, r.unit) },
      { key: 'change', label: 'Change', class: 'num', value: (r) => r.changePercent,
        render: (r) => el('span', { class: { worse: 'bad', better: 'good' }[verdict(r)] }, fmtPercent(r.changePercent)) },
    ],
  });
}
