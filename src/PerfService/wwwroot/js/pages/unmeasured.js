// Targets a run did not measure: one line that says how many and why, with the list behind it. A filtered or partial
// run leaves most of a project's targets unmeasured; as table rows they would bury the ones that were judged.
import { el } from '../dom.js';

// The evaluator's reasons (PerfService.Core TargetEvaluator) by what they mean to a reader, said of one target and of
// several; any other is shown as written.
const causes = [
  [/^no \S+ result matches /, 'no result matches the benchmark it names', 'no result matches the benchmarks they name'],
  [/^benchmark failed/, 'its benchmark failed', 'their benchmark failed'],
  [/^no value reported/, 'its benchmark reported no value', 'their benchmark reported no value'],
  [/^(cannot convert|units differ)/, 'its unit does not convert', 'their unit does not convert'],
  [/^baseline .* (has no value|is zero)$/, 'its baseline has no usable value', 'their baseline has no usable value'],
];

const causeOf = (detail) => causes.find(([pattern]) => pattern.test(detail ?? ''));
const key = (detail) => causeOf(detail)?.[0].source ?? (detail || 'no reason recorded');
const said = (detail, n) => causeOf(detail)?.[n === 1 ? 1 : 2] ?? (detail || 'no reason recorded');
const targets = (n) => (n === 1 ? '1 target' : `${n} targets`);

/** items: [{ name, detail, profile? }], the targets whose state is NotMeasured; null when there are none. */
export function unmeasuredLine(items, id) {
  if (!items.length) return null;
  // Grouped by cause, each group remembering one of its details to word the cause for its count.
  const byCause = new Map();
  for (const t of items) {
    const group = byCause.get(key(t.detail)) ?? { detail: t.detail, n: 0 };
    group.n++;
    byCause.set(key(t.detail), group);
  }
  const groups = [...byCause.values()];
  const why = groups.length === 1 ? said(groups[0].detail, groups[0].n)
    : groups.map((g) => `${g.n} because ${said(g.detail, g.n)}`).join('; ');
  const profiles = [...new Set(items.map((t) => t.profile).filter(Boolean))];
  const where = profiles.length > 1 ? ` (on ${profiles.length} profiles)` : '';
  return el('details', { class: 'unmeasured', id },
    el('summary', {}, `${targets(items.length)} not measured${where}: ${why}.`),
    el('ul', {}, items.map((t) => el('li', {}, t.name, t.profile && profiles.length > 1 ? el('span', { class: 'muted' }, ` · ${t.profile}`) : null,
      el('span', { class: 'muted' }, ` — ${t.detail ?? 'no reason recorded'}`)))));
}
