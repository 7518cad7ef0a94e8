// Targets a run did not measure: one line that says how many and why, with the list behind it. A filtered or partial
// run leaves most of a project's targets unmeasured; as table rows they would bury the ones that were judged.
import { el } from '../dom.js';

// The evaluator's reasons (PerfService.Core TargetEvaluator) by what they mean to a reader; any other is shown as written.
const causes = [
  [/^no \S+ result matches /, 'no result matches the benchmarks they name'],
  [/^benchmark failed/, 'their benchmark failed'],
  [/^no value reported/, 'their benchmark reported no value'],
  [/^(cannot convert|units differ)/, 'their unit does not convert'],
  [/^baseline .* (has no value|is zero)$/, 'their baseline has no usable value'],
];

const cause = (detail) => causes.find(([pattern]) => pattern.test(detail ?? ''))?.[1] ?? (detail || 'no reason recorded');
const targets = (n) => (n === 1 ? '1 target' : `${n} targets`);

/** items: [{ name, detail, profile? }], the targets whose state is NotMeasured; null when there are none. */
export function unmeasuredLine(items, id) {
  if (!items.length) return null;
  const byCause = new Map();
  for (const t of items) byCause.set(cause(t.detail), (byCause.get(cause(t.detail)) ?? 0) + 1);
  const why = byCause.size === 1 ? [...byCause.keys()][0]
    : [...byCause].map(([text, n]) => `${n} because ${text}`).join('; ');
  const profiles = [...new Set(items.map((t) => t.profile).filter(Boolean))];
  const where = profiles.length > 1 ? ` (on ${profiles.length} profiles)` : '';
  return el('details', { class: 'unmeasured', id },
    el('summary', {}, `${targets(items.length)} not measured${where}: ${why}.`),
    el('ul', {}, items.map((t) => el('li', {}, t.name, t.profile && profiles.length > 1 ? el('span', { class: 'muted' }, ` · ${t.profile}`) : null,
      el('span', { class: 'muted' }, ` — ${t.detail ?? 'no reason recorded'}`)))));
}
