// DOM helpers. Text always goes in through textContent: names in the data (benchmarks, branches, reasons) are never
// parsed as HTML.
import { word } from './words.js';

/** el('td', { class: 'num', title: 'x' }, 'text', childNode, ...) */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key.startsWith('on') && typeof value === 'function') node.addEventListener(key.slice(2), value);
    else if (key === 'href') node.setAttribute('href', safeHref(value));
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Only same-site paths and http(s) URLs become links; anything else (javascript:, data:) is dropped. */
export function safeHref(value) {
  const text = String(value);
  if (text.startsWith('/') && !text.startsWith('//')) return text;
  if (/^[a-z0-9_-]+\.html(\?|$)/i.test(text)) return text;
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : '#';
  } catch {
    return '#';
  }
}

export const $ = (selector, root = document) => root.querySelector(selector);

export function clear(node, ...children) {
  node.replaceChildren();
  append(node, children);
  return node;
}

export function showError(container, error) {
  clear(container, el('div', { class: 'error', role: 'alert' }, error?.message || String(error)));
}

export const shortSha = (sha) => (sha ? sha.slice(0, 10) : '');

const numberFormat = new Intl.NumberFormat('en', { maximumSignificantDigits: 4 });

export function fmtNumber(value, unit) {
  if (value === null || value === undefined) return '–';
  return unit ? `${numberFormat.format(value)} ${unit}` : numberFormat.format(value);
}

export function fmtPercent(value, digits = 1) {
  if (value === null || value === undefined || Number.isNaN(value)) return '–';
  return `${value > 0 ? '+' : ''}${value.toFixed(digits)}%`;
}

export function fmtTime(iso) {
  if (!iso) return '–';
  return new Date(iso).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
}

export function timeAgo(iso, now = Date.now()) {
  const seconds = Math.round((now - new Date(iso).getTime()) / 1000);
  if (seconds < 60) return `${seconds}s ago`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 86400) return `${Math.round(seconds / 3600)} h ago`;
  return `${Math.round(seconds / 86400)} d ago`;
}

/** A badge whose class comes from a fixed list, never from data. An enum value shows as words (words.js). */
export function badge(text, kinds = {}) {
  const kind = kinds[String(text).toLowerCase()] || 'neutral';
  return el('span', { class: `badge badge-${kind}` }, word(text));
}

export const outcomeKinds = {
  regression: 'bad', improvement: 'good', nochange: 'neutral', inconclusive: 'warn',
  pass: 'good', fail: 'bad', notmeasured: 'warn', atrisk: 'warn',
  active: 'bad', acknowledged: 'warn', invalid: 'neutral', fixed: 'good',
  running: 'info', queued: 'neutral', succeeded: 'good', failed: 'bad', cancelled: 'neutral',
};

/** Reads and writes the page's state in the URL query, so every view can be shared as a link. */
export const urlState = {
  get: (key) => new URLSearchParams(location.search).get(key),
  getAll: (key) => new URLSearchParams(location.search).getAll(key),
  params: () => new URLSearchParams(location.search),
  replace(params) {
    const qs = params.toString();
    history.replaceState(null, '', qs ? `${location.pathname}?${qs}` : location.pathname);
  },
};
