using System.Linq.Expressions;
using PerfService.Data.Entities;

namespace PerfService.Alerts;

/// <summary>
/// "Open": an alert or group someone still has to act on (active) or keeps in view (acknowledged); fixed and invalid
/// ones are closed. The one definition, for queries and for loaded rows.
/// </summary>
public static class OpenAlertFilter
{
    private static readonly AlertState[] s_open = [AlertState.Active, AlertState.Acknowledged];

    public static bool IsOpen(this AlertState state) => s_open.Contains(state);

    public static IQueryable<Alert> WhereOpen(this IQueryable<Alert> alerts) => alerts.Where(Open<Alert>(a => a.State));

    public static IQueryable<AlertGroup> WhereOpen(this IQueryable<AlertGroup> groups) =>
        groups.Where(Open<AlertGroup>(g => g.State));

    // "state = 'Active' OR state = 'Acknowledged'" with the states as constants, the SQL a hand-written filter gives
    // (a captured array would become a parameter and change the plans the hot-query tests assert).
    private static Expression<Func<T, bool>> Open<T>(Expression<Func<T, AlertState>> state) =>
        Expression.Lambda<Func<T, bool>>(
            s_open
                .Select(s => (Expression)Expression.Equal(state.Body, Expression.Constant(s)))
                .Aggregate(Expression.OrElse),
            state.Parameters
        );
}
