"""``python -m bench``: run the benchmark modules, print their figures, update BENCHMARKS.md.

Run from the repository root with the project's virtual environment. Imports ``bench.common``,
the discovered ``bench.bench_*`` modules and the standard library.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
import time
import traceback
from collections.abc import Sequence
from pathlib import Path

import bench
from bench.common import Result, format_value, machine, write_report

DEFAULT_OUTPUT = Path(__file__).resolve().parents[1] / "BENCHMARKS.md"


def discover() -> dict[str, str]:
    """Map each area to its module name (``journal`` -> ``bench.bench_journal``)."""
    return {
        info.name.removeprefix("bench_"): f"bench.{info.name}"
        for info in sorted(pkgutil.iter_modules(bench.__path__), key=lambda i: i.name)
        if info.name.startswith("bench_")
    }


def _print_results(results: Sequence[Result]) -> None:
    for r in results:
        verdict = {None: "", True: "pass", False: "FAIL"}[r.passed]
        extra = []
        if r.baseline is not None:
            extra.append(f"baseline {format_value(r.baseline)} {r.unit}".rstrip())
        if r.ratio is not None:
            extra.append(f"ratio {format_value(r.ratio)}x")
        if r.target is not None:
            extra.append(f"target {r.target.describe(r.unit)} {verdict}")
        tail = f"  ({'; '.join(extra)})" if extra else ""
        print(f"  {r.name}: {format_value(r.value)} {r.unit}{tail}")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the chosen areas (default: all); return 0, or 1 if a module failed to run."""
    areas = discover()
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("areas", nargs="*", help=f"areas to run (default all: {', '.join(areas)})")
    parser.add_argument(
        "--quick", action="store_true", help="a fast smoke run; writes no report unless --output"
    )
    parser.add_argument(
        "--output", type=Path, help=f"report to update (default {DEFAULT_OUTPUT.name})"
    )
    parser.add_argument("--list", action="store_true", help="list the areas and exit")
    parser.add_argument(
        "--strict", action="store_true", help="exit with status 2 if a target is missed"
    )
    args = parser.parse_args(argv)
    if args.list:
        print("\n".join(areas))
        return 0
    unknown = [a for a in args.areas if a not in areas]
    if unknown:
        parser.error(f"unknown area(s) {', '.join(unknown)}; known: {', '.join(areas)}")
    chosen = args.areas or list(areas)
    print(f"machine: {machine().describe()}")
    results: list[Result] = []
    broken = []
    for area in chosen:
        print(f"[{area}]", flush=True)
        start = time.perf_counter()
        try:
            module = importlib.import_module(areas[area])
            got = list(module.run(args.quick))
        except Exception:
            traceback.print_exc()
            broken.append(area)
            continue
        _print_results(got)
        print(f"  ({time.perf_counter() - start:.1f} s)", flush=True)
        results.extend(got)
    output = args.output if args.output is not None else None if args.quick else DEFAULT_OUTPUT
    if output is not None and results:
        command = " ".join(["python -m bench", *(["--quick"] if args.quick else []), *args.areas])
        write_report(output, results, command=command)
        print(f"wrote {output}")
    if broken:
        print(f"failed to run: {', '.join(broken)}", file=sys.stderr)
        return 1
    if args.strict and any(r.passed is False for r in results):
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
