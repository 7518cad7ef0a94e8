// Benchmark explorer: search and group a project's benchmarks, chart the selected ones. Every choice is kept in the
// URL query (project, q, suite, params, group, b, measure, branch, profile, norm, zmin, zmax, base, head), so a view is a
// link; base and head mark a pull request's commits on the charts (the PR comment links here with them).
import { api } from '../api.js';
import { el, $, clear, showError, urlState } from '../dom.js';
import { initLayout } from '../layout.js';
import { renderCharts } from './explorer-charts.js';

initLayout();
const sidebar = $('#sidebar');
const charts = $('#charts');
const state = readState();
let benchmarks = [];
let context = { profiles: [], branches: [], defaultBranch: 'main' };

function readState() {
  const p = urlState.params();
  return {
    project: p.get('project') || '', q: p.get('q') || '', suite: p.get('suite') || '', params: p.get('params') || '',
    group: p.get('group') || '', selected: (p.get('b') || '').split(',').filter(Boolean).map(Number),
    measure: p.get('measure') || '', branch: p.get('branch') || '', profiles: p.getAll('profile'), norm: p.get('norm') || '',
    zmin: p.get('zmin') ? Number(p.get('zmin')) : undefined, zmax: p.get('zmax') ? Number(p.get('zmax')) : undefined,
    base: p.get('base') || '', head: p.get('head') || '',
  };
}

function writeState() {
  const p = new URLSearchParams();
  const set = (k, v) => { if (v !== '' && v !== undefined && v !== null) p.set(k, String(v)); };
  set('project', state.project); set('q', state.q); set('suite', state.suite); set('params', state.params); set('group', state.group);
  set('b', state.selected.join(',')); set('measure', state.measure); set('branch', state.branch);
  for (const profile of state.profiles) p.append('profile', profile);
  set('norm', state.norm); set('zmin', state.zmin); set('zmax', state.zmax); set('base', state.base); set('head', state.head);
  urlState.replace(p);
}

/** "N=10, Size=small" → { 'param.N': '10', 'param.Size': 'small' } */
function paramQuery(text) {
  const query = {};
  for (const part of text.split(',')) {
    const [key, ...rest] = part.split('=');
    if (key.trim() && rest.length) query[`param.${key.trim()}`] = rest.join('=').trim();
  }
  return query;
}

async function init() {
  try {
    const projects = await api.projects();
    if (!projects.length) return clear(sidebar, el('p', { class: 'muted' }, 'No visible projects.'));
    if (!projects.some((p) => p.slug === state.project)) state.project = projects[0].slug;
    const [overview, profiles] = await Promise.all([api.overview(state.project), api.profiles()]);
    context = { profiles: profiles.map((p) => p.name), branches: overview.branches, defaultBranch: overview.project.defaultBranch };
    renderSidebar(projects);
    await loadBenchmarks();
  } catch (e) {
    showError(sidebar, e);
  }
}

function renderSidebar(projects) {
  let timer;
  const debounced = (fn) => () => { clearTimeout(timer); timer = setTimeout(fn, 250); };
  const q = el('input', { type: 'search', id: 'search', value: state.q, placeholder: 'name or key…' });
  q.addEventListener('input', debounced(() => { state.q = q.value; loadBenchmarks(); }));
  const params = el('input', { type: 'text', id: 'params', value: state.params, placeholder: 'N=10, Size=small' });
  params.addEventListener('input', debounced(() => { state.params = params.value; loadBenchmarks(); }));
  const project = el('select', { id: 'project', onchange: (e) => { location.search = new URLSearchParams({ project: e.target.value }).toString(); } },
    projects.map((p) => el('option', { value: p.slug, selected: p.slug === state.project }, p.name)));
  clear(sidebar,
    el('label', {}, 'Project', project),
    el('label', {}, 'Search', q),
    el('label', {}, 'Parameters', params),
    el('div', { class: 'row' }, el('label', {}, 'Suite', el('select', { id: 'suite' })), el('label', {}, 'Group by', el('select', { id: 'group' }))),
    el('p', { id: 'bench-count', class: 'muted' }),
    el('div', { id: 'bench-list', class: 'bench-list' }));
}

async function loadBenchmarks() {
  writeState();
  const list = $('#bench-list');
  try {
    const result = await api.benchmarks(state.project, { q: state.q, suite: state.suite, ...paramQuery(state.params) });
    benchmarks = result.items;
    $('#bench-count').textContent = `${benchmarks.length}${result.truncated ? '+' : ''} benchmarks`;
    renderFilters();
    renderList();
    await drawCharts();
  } catch (e) {
    showError(list, e);
  }
}

function renderFilters() {
  const suites = [...new Set([...benchmarks.map((b) => b.suite), state.suite].filter(Boolean))].sort();
  clear($('#suite'), el('option', { value: '' }, 'All suites'), suites.map((s) => el('option', { value: s, selected: s === state.suite }, s)));
  $('#suite').onchange = (e) => { state.suite = e.target.value; loadBenchmarks(); };
  const names = [...new Set(benchmarks.flatMap((b) => Object.keys(b.parameters)))].sort();
  clear($('#group'), el('option', { value: '' }, 'Suite and name'), names.map((n) => el('option', { value: n, selected: n === state.group }, `Parameter ${n}`)));
  $('#group').onchange = (e) => { state.group = e.target.value; renderList(); writeState(); };
}

function groupKey(b) {
  if (state.group) return `${state.group} = ${b.parameters[state.group] ?? '(none)'}`;
  return `${b.suite} · ${b.name}`;
}

function renderList() {
  const groups = new Map();
  for (const b of benchmarks) {
    const key = groupKey(b);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(b);
  }
  const sorted = [...groups.entries()].sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }));
  const item = (b, label) => el('li', {}, el('label', { class: 'check', title: b.key },
    el('input', { type: 'checkbox', value: b.id, checked: state.selected.includes(b.id), dataset: { benchmark: b.id }, onchange: (e) => toggle(b.id, e.target.checked) }),
    el('span', {}, label)));
  // A benchmark alone in its group is listed as itself: a group of one only adds a click.
  const singles = sorted.filter(([, items]) => items.length === 1);
  const multiples = sorted.filter(([, items]) => items.length > 1);
  const open = multiples.length <= 30;
  clear($('#bench-list'), sorted.length ? [
    multiples.map(([key, items]) => el('details', { open: open || items.some((b) => state.selected.includes(b.id)) },
      el('summary', {}, key, el('span', { class: 'muted' }, ` ${items.length}`)),
      el('ul', {}, items.map((b) => item(b, variantLabel(b)))))),
    singles.length ? el('ul', { class: 'singles' }, singles.map(([key, [b]]) => item(b, singleLabel(key, b)))) : null,
  ] : el('p', { class: 'muted' }, 'No benchmark matches.'));
}

function singleLabel(key, b) {
  const variant = variantLabel(b);
  return state.group ? `${key} · ${variant}` : variant === b.key ? key : `${key} ${variant}`;
}

function variantLabel(b) {
  const params = Object.entries(b.parameters).map(([k, v]) => `${k}=${v}`).join(', ');
  const name = state.group ? b.name : '';
  return [name, params, b.job ? `[${b.job}]` : ''].filter(Boolean).join(' ') || b.key;
}

function toggle(id, on) {
  state.selected = on ? [...new Set([...state.selected, id])] : state.selected.filter((x) => x !== id);
  drawCharts();
}

async function drawCharts() {
  writeState();
  const known = new Map(benchmarks.map((b) => [b.id, b]));
  await renderCharts(charts, { state, context, known, onChange: () => drawCharts(), writeState });
  writeState();
}

init();
