using PerfService.Core.Reports;

namespace PerfService.Tests.Reports;

public class ValueFormatTests
{
    [Theory]
    [InlineData(0.5, "ns", "0.500 ns")]
    [InlineData(1234.5, "ns", "1.235 µs")]
    [InlineData(2_512_000, "ns", "2.512 ms")]
    [InlineData(1.5e9, "ns", "1.500 s")]
    [InlineData(12.5, "us", "12.50 µs")]
    [InlineData(250, "ms", "250.0 ms")]
    [InlineData(512, "B", "512 B")]
    [InlineData(1536, "B", "1.500 KB")]
    [InlineData(3.5 * 1024 * 1024, "bytes", "3.500 MB")]
    [InlineData(2048, "B/s", "2.000 KB/s")]
    [InlineData(3, "count", "3 count")]
    [InlineData(1234567, "ops/s", "1,234,567 ops/s")]
    [InlineData(0.25, "", "0.250")]
    [InlineData(10, "x<y>", "10 x&lt;y&gt;")]
    public void Values_are_scaled_to_a_readable_unit(double value, string unit, string expected) =>
        Assert.Equal(expected, ValueFormat.Value(value, unit));

    [Fact]
    public void Missing_values_show_a_dash()
    {
        Assert.Equal("—", ValueFormat.Value(null, "ns"));
        Assert.Equal("—", ValueFormat.Value(double.NaN, "ns"));
        Assert.Equal("—", ValueFormat.Change(null));
        Assert.Equal("—", ValueFormat.Interval(0.1, null));
        Assert.Equal("—", ValueFormat.PValue(null));
    }

    [Fact]
    public void Changes_carry_their_sign()
    {
        Assert.Equal("+12.3%", ValueFormat.Change(0.1234));
        Assert.Equal("-4.5%", ValueFormat.Change(-0.045));
        Assert.Equal("0.0%", ValueFormat.Change(0));
        Assert.Equal("+8.0% to +16.1%", ValueFormat.Interval(0.08, 0.161));
        Assert.Equal("< 0.001", ValueFormat.PValue(0.0002));
        Assert.Equal("0.042", ValueFormat.PValue(0.0421));
    }
}
