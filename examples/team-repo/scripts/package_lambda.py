"""Build dist/order-notifier.zip, the notifier's deployment package, from app/lambda/.

Run it before `terraform plan` whenever app/lambda/ changes (CI does, and fails the build
if the committed package differs). The zip is reproducible: fixed timestamps and
permissions, files in name order, so its hash (the function's source_code_hash) changes
only when the code does. The handler needs nothing beyond boto3, which the Lambda Python
runtime provides, so the package holds our code alone.

Usage: python scripts/package_lambda.py [--check]
"""

from __future__ import annotations

import argparse
import io
import sys
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SOURCE = REPO / "app" / "lambda"
PACKAGE = REPO / "dist" / "order-notifier.zip"
EPOCH = (1980, 1, 1, 0, 0, 0)


def files(source: Path) -> list[Path]:
    """The files that go into the package: the code, not its tests or caches."""
    return sorted(p for p in source.rglob("*.py")
                  if p.is_file() and not p.name.startswith("test_")
                  and "__pycache__" not in p.parts)


def build(source: Path = SOURCE) -> bytes:
    """The package's bytes, the same for the same code."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for path in files(source):
            info = zipfile.ZipInfo(path.relative_to(source).as_posix(), EPOCH)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, path.read_bytes())
    return out.getvalue()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="fail if the committed package is not built from app/lambda/")
    args = parser.parse_args()
    data = build()
    if args.check:
        if not PACKAGE.is_file() or PACKAGE.read_bytes() != data:
            print(f"{PACKAGE.relative_to(REPO)} is stale: run python scripts/package_lambda.py",
                  file=sys.stderr)
            return 1
        print(f"{PACKAGE.relative_to(REPO)} is up to date")
        return 0
    PACKAGE.parent.mkdir(parents=True, exist_ok=True)
    PACKAGE.write_bytes(data)
    print(f"wrote {PACKAGE.relative_to(REPO)} ({len(data)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
