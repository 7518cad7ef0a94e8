// Fetch wrappers for the PerfService API. The token (if any) lives in sessionStorage only and travels as a Bearer
// header: no cookies, so state-changing POSTs are not exposed to CSRF.
const TOKEN_KEY = 'perf.token';

export const getToken = () => sessionStorage.getItem(TOKEN_KEY) || '';
export const setToken = (token) => token ? sessionStorage.setItem(TOKEN_KEY, token.trim()) : sessionStorage.removeItem(TOKEN_KEY);

/** An API failure, carrying the ProblemDetails the service sent. */
export class ApiError extends Error {
  constructor(status, problem) {
    super(problem?.detail || problem?.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }
}

async function request(method, path, body) {
  const headers = { Accept: 'application/json' };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const type = response.headers.get('Content-Type') || '';
  const data = type.includes('json') ? await response.json() : await response.text();
  if (!response.ok) {
    const problem = typeof data === 'object' ? data : { title: data };
    if (problem.errors) problem.detail = Object.entries(problem.errors).map(([k, v]) => `${k}: ${v.join(', ')}`).join('; ');
    throw new ApiError(response.status, problem);
  }
  return data;
}

export const get = (path) => request('GET', path);
export const post = (path, body) => request('POST', path, body);

/** Builds "/api/v1/<path>?<query>" from an object; arrays repeat the key, empty values are left out. */
export function apiUrl(path, query = {}) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    for (const v of Array.isArray(value) ? value : [value]) {
      if (v !== undefined && v !== null && v !== '') params.append(key, String(v));
    }
  }
  const qs = params.toString();
  return `/api/v1/${path}${qs ? `?${qs}` : ''}`;
}

/** Follows `next` links of a paged list, up to maxPages. */
export async function getAll(url, maxPages = 20) {
  const items = [];
  for (let page = 0; url && page < maxPages; page++) {
    const data = await get(url);
    items.push(...data.items);
    url = data.next;
  }
  return { items, truncated: Boolean(url) };
}

const enc = encodeURIComponent;

export const api = {
  projects: () => get('/api/v1/projects'),
  profiles: () => get('/api/v1/profiles'),
  overview: (slug) => get(`/api/v1/projects/${enc(slug)}/overview`),
  benchmarks: (slug, query) => getAll(apiUrl(`projects/${enc(slug)}/benchmarks`, { limit: 500, ...query })),
  // Columns: a 10,000-point line is about half the bytes of one object per point (see charts.js toChartPoints).
  series: (slug, query) => get(apiUrl(`projects/${enc(slug)}/series`, { ...query, format: 'columns' })),
  runs: (slug, query) => get(apiUrl(`projects/${enc(slug)}/runs`, query)),
  run: (id) => get(`/api/v1/runs/${enc(id)}`),
  verdicts: (id) => get(`/api/v1/runs/${enc(id)}/verdicts`),
  targets: (id) => get(`/api/v1/runs/${enc(id)}/targets`),
  runProfiles: (id) => get(`/api/v1/runs/${enc(id)}/profiles`),
  compare: (slug, query) => get(apiUrl(`projects/${enc(slug)}/compare`, query)),
  disturbance: (slug, profile) => get(apiUrl(`projects/${enc(slug)}/disturbance`, { profile })),
  alerts: (query) => get(apiUrl('alerts', query)),
  alert: (id) => get(`/api/v1/alerts/${enc(id)}`),
  setAlertState: (id, body) => post(`/api/v1/alerts/${enc(id)}/state`, body),
  alertGroups: (slug, query) => get(apiUrl(`projects/${enc(slug)}/alert-groups`, query)),
  alertGroup: (id) => get(`/api/v1/alert-groups/${enc(id)}`),
  setAlertGroupState: (id, body) => post(`/api/v1/alert-groups/${enc(id)}/state`, body),
  agents: () => get('/api/v1/agents'),
  jobs: (query) => get(apiUrl('jobs', query)),
  job: (id) => get(`/api/v1/jobs/${enc(id)}`),
  pullReport: (slug, pr) => get(`/api/v1/projects/${enc(slug)}/pulls/${enc(pr)}/report`),
  // The head the page showed: the service refuses (409) if the author pushed another one since.
  approvePull: (slug, pr, headCommit) => post(`/api/v1/projects/${enc(slug)}/pulls/${enc(pr)}/approve`, { headCommit }),
  pullProfiles: (slug, pr) => get(`/api/v1/projects/${enc(slug)}/pulls/${enc(pr)}/profiles`),
  requestProfiles: (slug, pr, benchmarks, profile) => post(`/api/v1/projects/${enc(slug)}/pulls/${enc(pr)}/profiles`, { benchmarks, profile: profile || null }),
  alertProfiles: (id) => get(`/api/v1/alerts/${enc(id)}/profiles`),
  serviceStatus: () => get('/api/v1/service/status'),
  retryAnalysis: (runId) => post(`/api/v1/runs/${enc(runId)}/analysis/retry`),
};
