// disturbance.html?project=slug&profile=name: what else used a profile's machines while its runs ran, over time.
import { api } from '../api.js';
import { el, $, clear, showError, shortSha, urlState } from '../dom.js';
import { initLayout } from '../layout.js';
import { palette } from '../charts.js';

initLayout();
const container = $('#disturbance');
const project = urlState.get('project');
const profile = urlState.get('profile');
const { Chart } = window;
const percent = (share) => Math.round(share * 1000) / 10;

if (!project || !profile) {
  showError(container, new Error('Give a project and a profile: disturbance.html?project=slug&profile=ryzen-9950x'));
} else {
  document.title = `Disturbance on ${profile} · ${project} · PerfService`;
  try {
    const points = await api.disturbance(project, profile);
    const disturbed = points.filter((p) => p.disturbance.disturbed);
    const leftOut = points.filter((p) => p.leftOut);
    const canvas = el('canvas', { id: 'disturbance-chart', 'aria-label': `Other processes' CPU and steal during ${profile}'s runs` });
    clear(container,
      el('h1', {}, 'Disturbance', el('span', { class: 'muted' }, ` · ${profile} · ${project}`)),
      el('p', { id: 'disturbance-summary' }, points.length
        ? `${disturbed.length} of ${points.length} measured runs disturbed; ${leftOut.length} left out of change points and baselines.`
        : 'No run on this profile was measured by an agent yet.'),
      points.length ? el('div', { class: 'chart-box' }, canvas) : null,
      el('p', { class: 'muted' }, 'A round is disturbed when other processes used 10% of the cores it had, CPU steal reached 5%, or the CPU throttled. ',
        'The agent repeats a disturbed round within its job\'s budget; what stayed disturbed is marked.'));
    if (points.length) draw(canvas, points);
  } catch (e) {
    showError(container, e);
  }
}

// One point per run, oldest first; disturbed runs drawn larger and red; a click opens the run.
function draw(canvas, points) {
  const line = (label, color, value) => ({
    label, data: points.map(value), borderColor: color, backgroundColor: color,
    pointRadius: points.map((p) => (p.disturbance.disturbed ? 5 : 2)),
    pointBackgroundColor: points.map((p) => (p.disturbance.disturbed ? '#dc2626' : color)),
  });
  canvas.chart = new Chart(canvas, {
    type: 'line',
    data: {
      labels: points.map((p) => `#${p.runId} ${shortSha(p.commit)}`),
      datasets: [
        line('other processes, % of the cores', palette[0], (p) => percent(p.disturbance.otherCpuShare)),
        line('CPU steal, %', palette[3], (p) => percent(p.disturbance.stealShare)),
      ],
    },
    options: {
      animation: false, maintainAspectRatio: false,
      scales: { y: { min: 0, title: { display: true, text: '%' } } },
      onClick: (_event, elements) => { if (elements.length) location.href = `run.html?id=${points[elements[0].index].runId}`; },
    },
  });
}
