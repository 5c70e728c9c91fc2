"""Decodes each NAME.zbm of a folder with dissect.util's LZBITMAP decoder (an implementation independent of the
one under test) and compares it with NAME.raw. Prints NO-DISSECT when dissect.util is not installed."""
import pathlib
import sys

try:
    from dissect.util.compression import lzbitmap
except ImportError:
    print("NO-DISSECT")
    sys.exit(0)

folder = pathlib.Path(sys.argv[1])
checked = 0
failed = 0
for stream in sorted(folder.glob("*.zbm")):
    checked += 1
    expected = stream.with_suffix(".raw").read_bytes()
    try:
        decoded = lzbitmap.decompress(stream.read_bytes())
    except Exception as error:  # noqa: BLE001 - any failure is a finding
        print(f"{stream.name}: {type(error).__name__}: {error}")
        failed += 1
        continue
    if decoded != expected:
        first = next((i for i, (a, b) in enumerate(zip(decoded, expected)) if a != b), min(len(decoded), len(expected)))
        print(f"{stream.name}: {len(decoded)} bytes decoded, {len(expected)} expected, first difference at {first}")
        failed += 1
print(f"checked {checked} streams, {failed} differ")
sys.exit(1 if failed else 0)
