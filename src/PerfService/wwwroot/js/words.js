// The words pages show for the service's enum values, which reach the browser as written in code ("NotMeasured",
// "AtRisk", "PullRequest"). One mapping for every page: outcomes, target states, alert and job states and kinds.
const words = {
  NoChange: 'no change', NotMeasured: 'not measured', AtRisk: 'at risk',
  ChangePoint: 'change point', PullRequest: 'pull request', AwaitingApproval: 'awaiting approval',
  Rerun: 're-run', Bisect: 'bisection', Profile: 'profiling',
};

/** "NotMeasured" → "not measured"; a value without an entry reads as itself in lower case ("Regression" → "regression"). */
export function word(value) {
  const text = String(value ?? '');
  return words[text] ?? text.replace(/(?<=[a-z])(?=[A-Z])/g, ' ').toLowerCase();
}
