// What every page shares: the header (brand, main navigation with the current page marked, token control), drawn
// here so the pages hold only an empty <header class="top">. The token is kept in sessionStorage for this tab only.
import { el, $ } from './dom.js';
import { getToken, setToken } from './api.js';

// run.html and pr.html are reached through links from the others and have no entry of their own. API is the API
// reference (Scalar, served by the service), not a dashboard page.
const pages = [['index.html', 'Projects'], ['explorer.html', 'Explorer'], ['compare.html', 'Compare'], ['alerts.html', 'Alerts'],
  ['agents.html', 'Agents'], ['service.html', 'Service'], ['/api-reference/', 'API']];

export function initLayout() {
  // Pages answer with and without ".html" (and / is index), so compare bare names.
  const page = (path) => path.replace(/^\//, '').replace(/\.html$/, '') || 'index';
  const current = page(location.pathname);
  const slot = el('span', { id: 'token-slot', class: 'token-slot' });
  $('header.top').replaceChildren(
    el('a', { class: 'brand', href: 'index.html' }, 'PerfService'),
    el('nav', { class: 'main', 'aria-label': 'Main' },
      pages.map(([href, text]) => el('a', { href, 'aria-current': page(href) === current ? 'page' : null }, text))),
    slot);
  renderToken(slot);
}

function renderToken(slot) {
  const button = el('button', { type: 'button', class: 'link', id: 'token-button', onclick: () => askToken().then(() => renderToken(slot)) },
    getToken() ? 'Token set' : 'Set token');
  const forget = getToken() ? el('button', { type: 'button', class: 'link', onclick: () => { setToken(''); location.reload(); } }, 'Forget') : null;
  slot.replaceChildren(button, forget ?? '');
}

/** Asks for an API token once (a modal dialog) and keeps it for the tab. Resolves with the token or ''. */
export function askToken(message = 'Paste an API token (scope read or admin). It stays in this tab only.') {
  return new Promise((resolve) => {
    const input = el('input', { type: 'password', id: 'token-input', autocomplete: 'off', required: true, placeholder: 'perf_…' });
    const dialog = el('dialog', { class: 'modal', id: 'token-dialog' },
      el('form', { method: 'dialog' },
        el('h2', {}, 'API token'),
        el('p', {}, message),
        el('label', {}, 'Token', input),
        el('div', { class: 'actions' },
          el('button', { type: 'submit', value: 'cancel', formnovalidate: true, class: 'secondary' }, 'Cancel'),
          el('button', { type: 'submit', value: 'ok', id: 'token-save' }, 'Save'))));
    dialog.addEventListener('close', () => {
      if (dialog.returnValue === 'ok' && input.value.trim()) setToken(input.value);
      dialog.remove();
      resolve(getToken());
    });
    document.body.append(dialog);
    dialog.showModal();
  });
}
