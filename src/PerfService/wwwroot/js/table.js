// A sortable, filterable table. Sort column and filter text can live in the URL (urlKeys), so a view is shareable.
import { el, clear, urlState } from './dom.js';

/**
 * columns: [{ key, label, value: row => comparable, render: row => node|text, class }]
 * filters: [{ key, label, options: [[value, label]], test: (row, value) => bool }]
 * toolbar: false leaves out the filter box and count, for a table of a few rows.
 */
export function dataTable({ columns, rows, filters = [], urlKeys, empty = 'Nothing to show.', id, toolbar = true }) {
  const state = {
    sort: (urlKeys && urlState.get(urlKeys.sort)) || '',
    text: (urlKeys && urlState.get(urlKeys.filter)) || '',
    selects: Object.fromEntries(filters.map((f) => [f.key, (urlKeys && urlState.get(f.key)) || ''])),
  };
  const body = el('tbody');
  const count = el('span', { class: 'muted' });
  const head = el('tr', {}, columns.map((c) => el('th', {
    class: c.class, scope: 'col', tabindex: 0, dataset: { key: c.key },
    onclick: () => toggleSort(c.key),
    onkeydown: (e) => { if (e.key === 'Enter') toggleSort(c.key); },
  }, c.label)));
  const textInput = el('input', {
    type: 'search', placeholder: 'Filter…', value: state.text, 'aria-label': 'Filter rows',
    oninput: (e) => { state.text = e.target.value; update(); },
  });
  const selects = filters.map((f) => el('select', {
    'aria-label': f.label, dataset: { filter: f.key },
    onchange: (e) => { state.selects[f.key] = e.target.value; update(); },
  }, el('option', { value: '' }, `All ${f.label}`), f.options.map(([v, label]) => el('option', { value: v, selected: state.selects[f.key] === v }, label))));

  function toggleSort(key) {
    state.sort = state.sort === key ? `-${key}` : key;
    update();
  }

  function visibleRows() {
    const needle = state.text.trim().toLowerCase();
    let result = rows.filter((row) => !needle || columns.some((c) => String(c.value(row) ?? '').toLowerCase().includes(needle)));
    for (const f of filters) if (state.selects[f.key]) result = result.filter((row) => f.test(row, state.selects[f.key]));
    const key = state.sort.replace(/^-/, '');
    const column = columns.find((c) => c.key === key);
    if (column) {
      const sign = state.sort.startsWith('-') ? -1 : 1;
      result = [...result].sort((a, b) => sign * compare(column.value(a), column.value(b)));
    }
    return result;
  }

  function update() {
    const shown = visibleRows();
    clear(body, shown.length ? shown.map((row) => el('tr', {}, columns.map((c) => el('td', { class: c.class }, c.render ? c.render(row) : c.value(row))))) :
      el('tr', {}, el('td', { colspan: columns.length, class: 'muted' }, empty)));
    count.textContent = `${shown.length} of ${rows.length}`;
    for (const th of head.children) th.setAttribute('aria-sort', sortName(th.dataset.key));
    if (urlKeys) {
      const params = urlState.params();
      setParam(params, urlKeys.sort, state.sort);
      setParam(params, urlKeys.filter, state.text);
      for (const f of filters) setParam(params, f.key, state.selects[f.key]);
      urlState.replace(params);
    }
  }

  const sortName = (key) => (state.sort === key ? 'ascending' : state.sort === `-${key}` ? 'descending' : 'none');
  update();
  return el('div', { class: 'table-wrap', id },
    toolbar ? el('div', { class: 'toolbar' }, textInput, selects, count) : null,
    el('table', { class: 'data' }, el('thead', {}, head), body));
}

function setParam(params, key, value) {
  if (value) params.set(key, value); else params.delete(key);
}

function compare(a, b) {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  return typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b), 'en', { numeric: true });
}
