using PerfService.Core.Results;

namespace PerfService.Tests.Results;

public class GlobTests
{
    [Theory]
    [InlineData("Rivulet.*Parallel*", "Rivulet.Streams.ParallelFor(N=10)", true)]
    [InlineData("Rivulet.*Parallel*", "Rivulet.Parallel", true)] // stars may match nothing
    [InlineData("Rivulet.*Parallel*", "RivuletParallel", false)] // but the '.' is required
    [InlineData("Rivulet.*Parallel*", "Other.Streams.ParallelFor", false)]
    [InlineData("*With*", "Pool.WithTracing(N=1)", true)]
    [InlineData("*with*", "Pool.WithTracing", true)] // case does not matter
    [InlineData("Pool.*", "Other.Pool.X", false)]
    [InlineData("exact", "exact", true)]
    [InlineData("exact", "exactly", false)]
    [InlineData("*", "", true)]
    [InlineData("*", "anything at all", true)]
    [InlineData("?", "", false)]
    [InlineData("Sum(N=?0)", "Sum(N=10)", true)]
    [InlineData("Sum(N=?0)", "Sum(N=100)", false)]
    [InlineData("a*b*c", "aXXbYYc", true)]
    [InlineData("a*b*c", "aXXbYYcZ", false)]
    [InlineData("a*b", "abab", true)] // the star has to give back a 'b' it first swallowed
    [InlineData("*Parse [Short]", "Json.Parse [Short]", true)] // brackets are literal, not a character class
    [InlineData("**a**", "a", true)]
    public void Stars_and_question_marks_are_the_only_wildcards(string pattern, string key, bool expected) =>
        Assert.Equal(expected, Glob.IsMatch(pattern, key));

    [Fact]
    public void A_pattern_that_is_exponential_for_a_backtracking_regex_is_answered()
    {
        // With one retry point the cost is O(pattern × key): 200 stars against 5,000 characters is about a million steps.
        var pattern = string.Concat(Enumerable.Repeat("a*", 200)) + "b";
        Assert.False(Glob.IsMatch(pattern, new string('a', 5000)));
    }

    [Theory]
    [InlineData("Rivulet.*Parallel*", 16)]
    [InlineData("Sum(N=?0)", 8)]
    [InlineData("exact", 5)]
    public void Literal_characters_are_counted_for_specificity(string pattern, int literals) =>
        Assert.Equal(literals, Glob.LiteralCount(pattern));
}
