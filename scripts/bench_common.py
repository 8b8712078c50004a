"""Helpers the benchmark scripts share."""
import json
import os


def warm(ds):
    """Reads every file of a dataset once, so that a buffered run finds it in the page cache."""
    for root, _, files in os.walk(os.path.join(ds, "data")):
        for f in files:
            with open(os.path.join(root, f), "rb") as fh:
                while fh.read(1 << 24):
                    pass


def samples_of(ds):
    """Samples (records) of a dataset, from its manifest."""
    m = json.load(open(os.path.join(ds, "dlsize-dataset.json")))
    p = m.get("params", m)
    return int(p["files"]) * int(p.get("records_per_file", 1))
