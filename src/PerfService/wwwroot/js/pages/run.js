// run.html?id=123
import { $, showError, urlState } from '../dom.js';
import { initLayout } from '../layout.js';
import { renderRun } from './run-view.js';

initLayout();
const id = urlState.get('id');
if (id && /^\d+$/.test(id)) {
  document.title = `Run #${id} · PerfService`;
  await renderRun($('#run'), id);
} else {
  showError($('#run'), new Error('Give a run id: run.html?id=123'));
}
