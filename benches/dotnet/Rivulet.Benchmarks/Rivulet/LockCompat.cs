#if !NET9_0_OR_GREATER
namespace Rivulet;

/// <summary>.NET 8 has no System.Threading.Lock; on it, <c>lock</c> on a plain object (a monitor) does the same job,
/// so the library builds unchanged for the .NET 8 runs.</summary>
internal sealed class Lock;
#endif
