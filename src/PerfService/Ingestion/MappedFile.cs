using System.Buffers;
using System.IO.MemoryMappedFiles;

namespace PerfService.Ingestion;

/// <summary>
/// A spooled upload file seen as memory: the pages come from the page cache, which the kernel can drop and read
/// again, so a large file is never copied onto the managed heap. The file is deleted when this is disposed.
/// </summary>
public sealed unsafe class MappedFile : MemoryManager<byte>
{
    private readonly FileStream _file;
    private readonly MemoryMappedFile _map;
    private readonly MemoryMappedViewAccessor _view;
    private readonly byte* _pointer;
    private readonly int _length;

    private MappedFile(FileStream file, int length)
    {
        _file = file;
        _length = length;
        _map = MemoryMappedFile.CreateFromFile(
            file,
            null,
            length,
            MemoryMappedFileAccess.Read,
            HandleInheritability.None,
            leaveOpen: true
        );
        _view = _map.CreateViewAccessor(0, length, MemoryMappedFileAccess.Read);
        byte* p = null;
        _view.SafeMemoryMappedViewHandle.AcquirePointer(ref p);
        _pointer = p + _view.PointerOffset;
    }

    /// <summary>Maps a spool file written to <paramref name="file"/> (opened with DeleteOnClose); takes ownership of
    /// it.</summary>
    public static MappedFile Map(FileStream file) => new(file, checked((int)file.Length));

    public override Span<byte> GetSpan() => new(_pointer, _length);

    public override MemoryHandle Pin(int elementIndex = 0) => new(_pointer + elementIndex);

    public override void Unpin() { }

    protected override void Dispose(bool disposing)
    {
        if (!disposing)
            return;
        _view.SafeMemoryMappedViewHandle.ReleasePointer();
        _view.Dispose();
        _map.Dispose();
        _file.Dispose();
    }
}
