// Renders the service's OpenAPI document (/openapi/v1.json): operations by tag with parameters and responses, then schemas.
import { el, $, clear, showError } from '../dom.js';
import { initLayout } from '../layout.js';

initLayout();
const out = $('#apidocs');

const refName = (schema) => schema?.$ref?.split('/').pop();

function typeOf(schema) {
  if (!schema) return '';
  if (schema.$ref) return refName(schema);
  if (schema.oneOf) return schema.oneOf.map(typeOf).join(' | ');
  if (schema.type === 'array' || (Array.isArray(schema.type) && schema.type.includes('array'))) return `${typeOf(schema.items)}[]`;
  const type = Array.isArray(schema.type) ? schema.type.filter((t) => t !== 'null').join('|') : schema.type;
  return [type, schema.format ? `(${schema.format})` : ''].join(' ').trim() || (schema.anyOf ? 'one of' : 'any');
}

function operations(doc) {
  const byTag = new Map();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'delete', 'patch'].includes(method)) continue;
      const tag = op.tags?.[0] ?? 'Other';
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag).push({ path, method, op, shared: item.parameters ?? [] });
    }
  }
  return [...byTag.entries()].map(([tag, ops]) => el('section', { class: 'api-tag' }, el('h2', {}, tag), ops.map(operation)));
}

function operation({ path, method, op, shared }) {
  const params = [...shared, ...(op.parameters ?? [])];
  const body = op.requestBody?.content?.['application/json']?.schema;
  return el('details', { class: 'operation' },
    el('summary', {}, el('span', { class: `method method-${method}` }, method.toUpperCase()), ' ', el('code', {}, path),
      op.summary ? el('span', { class: 'muted' }, ` ${op.summary}`) : null),
    op.description ? el('p', {}, op.description) : null,
    params.length ? el('table', { class: 'data compact' }, el('thead', {}, el('tr', {}, ['Parameter', 'In', 'Type', 'Required'].map((h) => el('th', {}, h)))),
      el('tbody', {}, params.map((p) => el('tr', {}, el('td', {}, el('code', {}, p.name)), el('td', {}, p.in), el('td', {}, typeOf(p.schema)), el('td', {}, p.required ? 'yes' : ''))))) : null,
    body ? el('p', {}, 'Body: ', el('code', {}, typeOf(body))) : null,
    el('p', {}, 'Responses: ', Object.entries(op.responses ?? {}).map(([code, r], i) => [i ? ', ' : '', el('code', {}, code), ' ',
      Object.keys(r.content ?? {}).join(' / ') || '', ' ', typeOf(Object.values(r.content ?? {})[0]?.schema)])));
}

function schemas(doc) {
  const all = Object.entries(doc.components?.schemas ?? {});
  return el('section', {}, el('h2', {}, 'Schemas'), all.map(([name, schema]) => el('details', { class: 'schema', id: `schema-${name}` },
    el('summary', {}, el('code', {}, name)),
    el('table', { class: 'data compact' }, el('tbody', {}, Object.entries(schema.properties ?? {}).map(([prop, s]) => el('tr', {},
      el('td', {}, el('code', {}, prop)), el('td', {}, typeOf(s)), el('td', {}, (schema.required ?? []).includes(prop) ? 'required' : ''))))))));
}

try {
  const response = await fetch('/openapi/v1.json', { headers: { Accept: 'application/json' } });
  if (!response.ok) throw new Error(`GET /openapi/v1.json: HTTP ${response.status}`);
  const doc = await response.json();
  clear(out, el('p', { class: 'muted' }, `${doc.info?.title ?? 'API'} ${doc.info?.version ?? ''} · OpenAPI ${doc.openapi}`), ...operations(doc), schemas(doc));
} catch (e) {
  showError(out, e);
}
