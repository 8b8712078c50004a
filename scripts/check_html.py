#!/usr/bin/env python3
"""Checks that an HTML report of dlsize is well-formed and self-contained.

Usage: scripts/check_html.py FILE [--svg N] [--tables N]

Well-formed: the page parses as XML (every element closed, entities XML knows) and, through
html.parser, every non-void element closes in order. Self-contained: no <script>, <link>,
<iframe>, <img>, and no src/href to another resource (only #fragments). --svg and --tables
ask for at least that many <svg> and <table> elements. Exit 0 when it holds, 1 with the
reasons otherwise.
"""
import argparse
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
FORBIDDEN = {"script", "link", "iframe", "img", "object", "embed"}


def report(prefix, problems, ok):
    """Prints each problem after PREFIX, or ok() when there is none; returns the exit status (1: problems)."""
    for p in problems:
        print(f"{prefix}: {p}")
    if not problems:
        print(f"{prefix}: {ok()}")
    return 1 if problems else 0


class Balance(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.problems, self.counts = [], [], {}

    def handle_starttag(self, tag, attrs):
        self.counts[tag] = self.counts.get(tag, 0) + 1
        if tag in FORBIDDEN:
            self.problems.append(f"<{tag}> is not allowed in a self-contained report")
        for name, value in attrs:
            if name in ("src", "href") and value and not value.startswith("#"):
                self.problems.append(f"<{tag} {name}={value!r}> loads another resource")
        if tag not in VOID:
            self.stack.append((tag, self.getpos()))

    def handle_startendtag(self, tag, attrs):
        self.counts[tag] = self.counts.get(tag, 0) + 1

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1][0] != tag:
            open_tag = self.stack[-1] if self.stack else None
            self.problems.append(f"</{tag}> at line {self.getpos()[0]} closes {open_tag}")
            return
        self.stack.pop()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--svg", type=int, default=0)
    ap.add_argument("--tables", type=int, default=0)
    a = ap.parse_args()
    text = open(a.file, encoding="utf-8").read()
    problems = []
    if not text.startswith("<!DOCTYPE html>"):
        problems.append("no <!DOCTYPE html> at the start")
    try:
        ET.fromstring(text.split("\n", 1)[1])
    except ET.ParseError as e:
        problems.append(f"not well-formed XML: {e}")
    b = Balance()
    b.feed(text)
    b.close()
    problems += b.problems
    if b.stack:
        problems.append(f"elements never closed: {b.stack}")
    if b.counts.get("svg", 0) < a.svg:
        problems.append(f"{b.counts.get('svg', 0)} <svg> elements, wanted at least {a.svg}")
    if b.counts.get("table", 0) < a.tables:
        problems.append(f"{b.counts.get('table', 0)} <table> elements, wanted at least {a.tables}")
    return report(a.file, problems, lambda: f"well-formed, self-contained, {b.counts.get('svg', 0)} svg, {b.counts.get('table', 0)} tables")


if __name__ == "__main__":
    sys.exit(main())
