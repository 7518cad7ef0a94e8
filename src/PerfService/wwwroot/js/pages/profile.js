// profile.html?job=123&benchmark=Name: head against base for one benchmark of a profiling job, as a differential flame
// graph (d3-flame-graph, global `flamegraph`), with each side's plain graph a click away. Frame names are data: the
// library writes them with textContent, and so does everything here.
import { $, el, clear, showError, shortSha, urlState } from '../dom.js';
import { get, apiUrl } from '../api.js';
import { initLayout } from '../layout.js';

initLayout();
const container = $('#profile');
const job = urlState.get('job');
const benchmark = urlState.get('benchmark');
const percent = (share) => `${(share * 100).toFixed(1)}%`;

/** The tree as d3-flame-graph reads it. Differential: the width is head's samples and `delta` head's samples minus
 * base's scaled to head's total, so a frame that kept its share is grey however long each side ran. */
function toFlame(node, view, scale) {
  const value = view === 'base' ? node.base : node.head;
  const children = node.children.map((c) => toFlame(c, view, scale)).filter((c) => c.value > 0);
  const result = { name: node.name, value, children };
  if (view === 'diff') result.delta = node.head - node.base * scale;
  return result;
}

function changeList(title, changes) {
  if (changes.length === 0) return null;
  return el('section', {},
    el('h3', {}, title),
    el('ol', { class: 'frame-changes' }, changes.map((c) =>
      el('li', {}, el('code', {}, c.frame), ` ${c.headSelfShare >= c.baseSelfShare ? '+' : ''}${percent(c.headSelfShare - c.baseSelfShare)} of samples `,
        el('span', { class: 'muted' }, `(${percent(c.baseSelfShare)} → ${percent(c.headSelfShare)})`)))));
}

async function render() {
  const diff = await get(apiUrl(`jobs/${job}/profiles/differential`, { benchmark }));
  const profiles = await get(apiUrl(`jobs/${job}/profiles`));
  document.title = `Profile of ${diff.benchmark} · PerfService`;
  const scale = diff.baseSamples > 0 ? diff.headSamples / diff.baseSamples : 0;
  const chartBox = el('div', { id: 'flame', class: 'flame' });
  const details = el('p', { id: 'flame-details', class: 'muted hint' });
  const search = el('input', { type: 'search', id: 'flame-search', placeholder: 'Search frames', 'aria-label': 'Search frames' });
  let chart;
  const show = (view) => {
    for (const b of views.querySelectorAll('button')) b.setAttribute('aria-pressed', String(b.dataset.view === view));
    chart = flamegraph.default().width(Math.max(600, chartBox.clientWidth || 960)).cellHeight(18).minFrameSize(2).inverted(false)
      .setDetailsElement(details).sort(true);
    if (view === 'diff') chart.setColorMapper(flamegraph.colorMapper.differentialColorMapper);
    clear(chartBox);
    d3.select(chartBox).datum(toFlame(diff.root, view, scale)).call(chart);
    if (search.value) chart.search(search.value);
  };
  const views = el('div', { class: 'toolbar', role: 'group', 'aria-label': 'View' },
    [['diff', 'Head against base'], ['base', 'Base'], ['head', 'Head']].map(([view, text]) =>
      el('button', { type: 'button', class: 'small', dataset: { view }, onclick: () => show(view) }, text)),
    search,
    el('button', { type: 'button', class: 'small', onclick: () => { search.value = ''; chart.clear(); chart.resetZoom(); } }, 'Reset zoom'));
  search.addEventListener('input', () => (search.value ? chart.search(search.value) : chart.clear()));

  const context = diff.pullRequest
    ? el('a', { href: `pr.html?project=${encodeURIComponent(diff.project)}&pr=${diff.pullRequest}`, id: 'profile-context' }, `pull request #${diff.pullRequest}`)
    : diff.alertId ? el('a', { href: `alerts.html?id=${diff.alertId}`, id: 'profile-context' }, `alert #${diff.alertId}`) : null;
  clear(container,
    el('h1', {}, 'Profile of ', el('code', { id: 'profile-benchmark' }, diff.benchmark)),
    el('p', {}, 'On ', el('strong', {}, diff.profile), context ? [' for ', context] : null,
      ': head ', el('code', {}, shortSha(diff.commit)), ' against base ', el('code', {}, shortSha(diff.baseCommit))),
    el('p', { id: 'profile-samples' }, `Samples: base ${diff.baseSamples.toLocaleString('en')}, head ${diff.headSamples.toLocaleString('en')}.`),
    diff.tooFewSamples
      ? el('p', { class: 'callout', id: 'profile-too-few', role: 'note' },
        `Too few samples to read: each side needs at least ${diff.minSamples.toLocaleString('en')} for a frame's share to be known to about ±3 points.`)
      : null,
    el('section', { id: 'profile-summary' },
      changeList('Self time grew most', diff.grown),
      changeList('Self time shrank most', diff.shrunk),
      diff.grown.length === 0 && diff.shrunk.length === 0 ? el('p', { class: 'muted' }, 'No frame changed its share of samples.') : null),
    el('p', { class: 'hint muted' }, 'Red frames hold a larger share of head\'s samples than of base\'s, blue a smaller one, orange ones are only on head; width is head\'s samples. Click a frame to zoom.'),
    views, chartBox, details,
    el('h3', {}, 'Downloads'),
    el('ul', { id: 'profile-downloads' }, profiles.filter((p) => p.benchmark === diff.benchmark).map((p) =>
      el('li', {}, `${p.role} round ${p.round}, ${p.samples.toLocaleString('en')} samples: `,
        el('a', { href: p.nativeUrl }, `as recorded (${p.format})`), ' · ', el('a', { href: p.foldedUrl }, 'normalised folded stacks')))));
  show('diff');
}

if (job && /^\d+$/.test(job) && benchmark) {
  render().catch((e) => showError(container, e));
} else {
  showError(container, new Error('Give a profiling job and a benchmark: profile.html?job=123&benchmark=Name'));
}
