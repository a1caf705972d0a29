"""The exports of a frozen journal compared with what an older ultibank wrote: the columns
added since (each named by the test) are set aside, and every other byte must be as it was."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Collection


def without(text: str, added: Collection[str]) -> str:
    """``history export`` output *text* (JSON or CSV) without the columns *added*, written
    back the way ``history export`` writes it."""
    if text.startswith("["):
        rows = [{k: v for k, v in row.items() if k not in added} for row in json.loads(text)]
        return json.dumps(rows, indent=2, ensure_ascii=False) + "\n"
    reader = csv.DictReader(io.StringIO(text))
    fields = [f for f in reader.fieldnames or () if f not in added]
    buf = io.StringIO()
    # read back through text mode, the rows end in a bare newline
    end = "\r\n" if "\r\n" in text else "\n"
    writer = csv.DictWriter(buf, fieldnames=fields, lineterminator=end)
    writer.writeheader()
    for row in reader:
        writer.writerow({k: v for k, v in row.items() if k in fields})
    return buf.getvalue()
