"""``python -m toolform.generator FOLDER [SEED]``: write the generated dataset to FOLDER."""

from __future__ import annotations

import sys

from ._dataset import write_generated_dataset


def main(argv: list[str]) -> int:
    """Write the dataset; print the files written. Returns the exit status."""
    if not 1 <= len(argv) <= 2:
        print("usage: python -m toolform.generator FOLDER [SEED]", file=sys.stderr)
        return 2
    for path in write_generated_dataset(argv[0], int(argv[1]) if len(argv) == 2 else 0):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
