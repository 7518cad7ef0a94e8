using System.Net;
using PerfService.Agents.Client;

namespace PerfService.Agents.Tests.Client;

public sealed class ProblemTextTests
{
    [Theory]
    [InlineData("""{"type":"about:blank","title":"Unparseable results","detail":"a.json at $.x: expected a number","status":422}""", "Unparseable results: a.json at $.x: expected a number")]
    [InlineData("""{"title":"Not Found","status":404}""", "Not Found")]
    [InlineData("\"this agent no longer holds the job (its lease expired)\"", "this agent no longer holds the job (its lease expired)")]
    [InlineData("<html>502 Bad Gateway</html>", "<html>502 Bad Gateway</html>")]
    [InlineData("", "HTTP 500")]
    public void Error_bodies_become_one_line(string body, string expected) => Assert.Equal(expected, ProblemText.FromBody(500, body));

    [Theory]
    [InlineData(HttpStatusCode.Unauthorized, ApiStatus.Unauthorized)]
    [InlineData(HttpStatusCode.Forbidden, ApiStatus.Unauthorized)]
    [InlineData(HttpStatusCode.NotFound, ApiStatus.NotFound)]
    [InlineData(HttpStatusCode.Conflict, ApiStatus.Conflict)]
    [InlineData(HttpStatusCode.UnprocessableEntity, ApiStatus.Rejected)]
    [InlineData(HttpStatusCode.RequestEntityTooLarge, ApiStatus.Rejected)]
    [InlineData(HttpStatusCode.TooManyRequests, ApiStatus.Transient)]
    [InlineData(HttpStatusCode.ServiceUnavailable, ApiStatus.Transient)]
    public void Status_codes_are_classified(HttpStatusCode code, ApiStatus expected) =>
        Assert.Equal(expected, PerfServiceClient.Classify(code));
}
