"""Rewrite the Snakemake report's pages of results as the current gradedrel writes them.

    python tools/refresh_report_pages.py [RESULTS]        (default: results)

A result's page (``RESULTS/report_pages/<path>.html``) is written by the job that writes the
result. A change of the pages' layout (gradedrel.report.html: rows shown, style) re-runs no
job, so pages written before it keep the old layout; this rewrites them from their result
files, keeping each page's title, before ``snakemake --report`` (make reproduce runs it).
"""
from __future__ import annotations

import argparse
import sys

from gradedrel.report.html import refresh_pages


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", nargs="?", default="results")
    args = parser.parse_args(argv)
    done = refresh_pages(args.results)
    print(f"refresh_report_pages: {len(done)} page(s) rewritten under {args.results}/report_pages")
    return 0


if __name__ == "__main__":
    sys.exit(main())
