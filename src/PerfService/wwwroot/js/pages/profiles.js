// The profiles of a pull request or an alert: per profiling job and benchmark, a link to its differential flame graph
// (profile.html), and on a pull request a form asking for more (an admin token, like every admin action).
import { el, clear, shortSha } from '../dom.js';
import { getToken } from '../api.js';
import { askToken } from '../layout.js';
import { word } from '../words.js';

export const profileHref = (job, benchmark) => `profile.html?${new URLSearchParams({ job, benchmark })}`;

/** @param load resolves with the ProfilingJobDto list; @param request (benchmarks glob, profile) queues more, or null. */
export function profilesSection(load, request = null) {
  const list = el('div', { id: 'profiles-list' }, el('p', { class: 'muted' }, 'Loading profiles…'));
  const refresh = () => load().then((jobs) => clear(list, jobs.length ? jobTable(jobs)
    : el('p', { class: 'muted' }, 'No profiles yet: regressions are profiled on base and head automatically.')))
    .catch((e) => clear(list, el('p', { class: 'muted' }, e.message)));
  refresh();
  return el('section', { id: 'pr-profiles' }, el('h2', {}, 'Profiles'),
    el('p', { class: 'hint muted' }, 'Why it got slower: CPU profiles of base and head on the machine that measured the change.'),
    list, request ? requestForm(request, refresh) : null);
}

function jobTable(jobs) {
  const rows = jobs.flatMap((j) => j.targets.map((t) => ({ job: j, target: t, profiles: j.profiles.filter((p) => p.benchmark === t.benchmark) })));
  return el('table', { id: 'profiles', class: 'data' },
    el('thead', {}, el('tr', {}, ['Benchmark', 'Profile', 'Head', 'Base', 'State', 'Samples'].map((h) => el('th', {}, h)))),
    el('tbody', {}, rows.map(({ job, target, profiles }) => {
      const samples = (role) => profiles.filter((p) => p.role === role).reduce((sum, p) => sum + p.samples, 0);
      return el('tr', { dataset: { benchmark: target.benchmark } },
        el('td', {}, profiles.length ? el('a', { href: profileHref(job.jobId, target.benchmark), class: 'profile-link' }, target.benchmark) : target.benchmark),
        el('td', { class: 'mono' }, job.profile),
        el('td', { class: 'mono' }, shortSha(job.commit)),
        el('td', { class: 'mono' }, shortSha(job.baseCommit)),
        el('td', {}, word(job.state)),
        el('td', { class: 'num' }, profiles.length ? `${samples('base').toLocaleString('en')} / ${samples('head').toLocaleString('en')}` : '–'));
    })));
}

function requestForm(request, refresh) {
  const glob = el('input', { type: 'text', id: 'profile-glob', placeholder: 'Parser.*', required: true });
  const profile = el('input', { type: 'text', id: 'profile-profile', placeholder: 'every profile' });
  const message = el('span', { id: 'profile-request-result', role: 'status' });
  const form = el('form', { class: 'toolbar', id: 'profile-request', onsubmit: async (event) => {
    event.preventDefault();
    if (!getToken() && !(await askToken('Asking for a profile needs a token with scope admin. It stays in this tab only.'))) return;
    try {
      const jobs = await request(glob.value.trim(), profile.value.trim());
      clear(message, `${jobs.length} profiling job${jobs.length === 1 ? '' : 's'} queued.`);
      refresh();
    } catch (e) {
      clear(message, e.status === 403 || e.status === 401 ? 'Asking for a profile needs an admin token.' : e.message);
    }
  } }, el('label', {}, 'Benchmarks (glob)', glob), el('label', {}, 'Hardware profile', profile),
  el('button', { type: 'submit', id: 'profile-request-button' }, 'Profile'), message);
  return form;
}
