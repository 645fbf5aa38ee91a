#!/usr/bin/env python3
"""Fails (exit 1) when an engine file has more than 500 lines or a function body more than 80 lines.

Functions are found by clang-format's layout (the tree is formatted): a definition opens with a line ending in '{'
at indentation 0 or 2 (namespace or class scope) and closes with the matching '}' at the same indentation.
Usage: scripts/check-sizes.py [folders...] (default: engine kernels)."""
import pathlib
import re
import sys

MAX_FILE, MAX_FUNCTION = 500, 80
SKIP = re.compile(r"^\s*(namespace|class|struct|enum|union|extern|template\s*<[^>]*>\s*(class|struct))\b")


def functions(lines):
    """(first, last) line numbers of each function definition at namespace or class scope."""
    open_at = start = None
    continued = False  # the line before ended in a backslash: this one belongs to a macro definition
    for number, line in enumerate(lines, 1):
        text = line.rstrip()
        in_macro, continued = continued, text.endswith("\\")
        if in_macro and open_at is None and start is None:
            continue
        indent = len(line) - len(line.lstrip(" "))
        if open_at is not None:
            if indent == open_indent and text.strip().startswith("}"):
                yield open_at, number
                open_at = None
            continue
        if start is None:
            head = text.strip()
            if indent not in (0, 2) or not head or head.startswith(("//", "#", "*", "/*")) or SKIP.match(text):
                continue
            if "(" not in head or "=" in head.split("(")[0]:
                continue
            start, start_indent = number, indent
        if text.endswith("{"):
            open_at, open_indent, start = start, start_indent, None
        elif text.endswith(";") or text.endswith("}"):
            start = None


def main(folders):
    bad = []
    for folder in folders:
        for path in sorted(pathlib.Path(folder).rglob("*")):
            if path.suffix not in (".cpp", ".hpp", ".cl"):
                continue
            lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
            if len(lines) > MAX_FILE:
                bad.append(f"{path}: {len(lines)} lines (at most {MAX_FILE})")
            for start, end in functions(lines):
                if end - start - 1 > MAX_FUNCTION:
                    bad.append(f"{path}:{start}: function of {end - start - 1} lines (at most {MAX_FUNCTION})")
    for b in bad:
        print(b, file=sys.stderr)
    print(f"check-sizes: {len(bad)} over the limits" if bad else "check-sizes: every file and function within limits")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["engine", "kernels"]))
