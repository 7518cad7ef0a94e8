// The triage dialog: new state, a reason and an optional issue link, POSTed as JSON with the tab's token. For a group
// (group: true) the change applies to every member.
import { api, setToken } from '../api.js';
import { el } from '../dom.js';

export function openTriage(alert, to, onDone, { group = false } = {}) {
  const error = el('p', { class: 'error', hidden: true, role: 'alert' });
  const stateSelect = el('select', { name: 'state', id: 'triage-state' },
    ['active', 'acknowledged', 'invalid', 'fixed'].map((s) => el('option', { value: s, selected: s === to }, s)));
  const reason = el('textarea', { name: 'reason', id: 'triage-reason', rows: 3, maxlength: 2000, placeholder: 'Why? (recorded with your token name)' });
  const issue = el('input', { name: 'issueUrl', id: 'triage-issue', type: 'url', value: alert.issueUrl ?? '', placeholder: 'https://github.com/owner/repo/issues/1 or #1' });
  const submit = el('button', { type: 'submit', id: 'triage-submit' }, 'Save');
  const form = el('form', {},
    el('h2', {}, group ? `Alert group #${alert.id}` : `Alert #${alert.id}`),
    el('p', { class: 'muted' }, group ? `Applies to all ${alert.members} alerts of the group.` : alert.summary),
    el('label', {}, 'State', stateSelect),
    el('label', {}, 'Reason', reason),
    el('label', {}, 'Issue', issue),
    error,
    el('div', { class: 'actions' },
      el('button', { type: 'button', class: 'secondary', onclick: () => dialog.close() }, 'Cancel'),
      submit));
  const dialog = el('dialog', { class: 'modal', id: 'triage-dialog' }, form);

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    submit.disabled = true;
    error.hidden = true;
    try {
      const body = { state: stateSelect.value, reason: reason.value || null, issueUrl: issue.value || null };
      const updated = group ? await api.setAlertGroupState(alert.id, body) : await api.setAlertState(alert.id, body);
      dialog.close();
      onDone(updated);
      if (!group) document.querySelector('#alert-detail')?.dispatchEvent(new CustomEvent('triaged', { detail: updated }));
    } catch (err) {
      // A token that is wrong or lacks the scope is forgotten, so the next try asks again.
      if (err.status === 401 || err.status === 403) setToken('');
      error.textContent = err.status === 401 || err.status === 403 ? `Not allowed (${err.status}): set a token with scope read or admin.` : err.message;
      error.hidden = false;
      submit.disabled = false;
    }
  });
  dialog.addEventListener('close', () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
}
