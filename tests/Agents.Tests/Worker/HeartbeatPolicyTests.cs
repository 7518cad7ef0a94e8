using PerfService.Agents.Client;
using PerfService.Agents.Worker;
using PerfService.Core.Contracts;

namespace PerfService.Agents.Tests.Worker;

public sealed class HeartbeatPolicyTests
{
    private static ApiResult<HeartbeatResponse> Answer(ApiStatus status, bool cancel = false) =>
        new(status, status == ApiStatus.Ok ? new HeartbeatResponse(cancel, DateTimeOffset.UnixEpoch, null) : null);

    [Theory]
    [InlineData(ApiStatus.Ok, false, HeartbeatDecision.KeepRunning)]
    [InlineData(ApiStatus.Ok, true, HeartbeatDecision.Cancel)]
    [InlineData(ApiStatus.Conflict, false, HeartbeatDecision.Abandon)]
    [InlineData(ApiStatus.NotFound, false, HeartbeatDecision.Abandon)]
    [InlineData(ApiStatus.Transient, false, HeartbeatDecision.KeepRunning)]
    [InlineData(ApiStatus.Rejected, false, HeartbeatDecision.KeepRunning)]
    public void Answers_map_to_decisions(ApiStatus status, bool cancel, HeartbeatDecision expected) =>
        Assert.Equal(expected, HeartbeatPolicy.Decide(Answer(status, cancel)));
}
