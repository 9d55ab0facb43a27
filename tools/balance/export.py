"""`--out FILE`: one row per game, as JSON Lines, CSV or Parquet (chosen by the file's extension).

A JSONL row keeps the nested record (lists per seat); CSV and Parquet rows are flat, one column per
seat and field (`p0_score`, `p0_bot`, `p1_coins`, ...), the same columns in every row. Parquet needs
pyarrow (`pip install -e '.[parquet]'`); JSONL and CSV need nothing.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

from tabula.balance.match import GameRecord
from tabula.common import CliError

FORMATS = (".jsonl", ".csv", ".parquet")


def nested_row(rec: GameRecord) -> dict[str, Any]:
    """The JSONL row of one game."""
    return {
        "index": rec.index,
        "seed": rec.seed,
        "players": rec.names,
        "bots": rec.bots,
        "winners": [rec.names[p] for p in rec.winners],
        "scores": rec.scores,
        "turns": rec.turns,
        "decisions": rec.decisions,
        "ending": rec.ending,
        "cpu_seconds": rec.seconds,
        "counters": rec.counters,
        "bot_stats": rec.bot_stats,
        "error": rec.error,
    }


def flat_row(rec: GameRecord) -> dict[str, Any]:
    """The CSV/Parquet row of one game."""
    row: dict[str, Any] = {
        "index": rec.index,
        "seed": rec.seed,
        "winners": ";".join(rec.names[p] for p in rec.winners),
        "turns": rec.turns,
        "decisions": rec.decisions,
        "ending": rec.ending,
        "cpu_seconds": round(rec.seconds, 6),
        "error": rec.error or "",
    }
    for p, name in enumerate(rec.names):
        row[f"p{p}_name"] = name
        row[f"p{p}_bot"] = rec.bots[p]
        row[f"p{p}_score"] = rec.scores[p]
        row[f"p{p}_won"] = int(p in rec.winners)
        for counter, value in (rec.counters[p] if p < len(rec.counters) else {}).items():
            row[f"p{p}_{counter}"] = value
    return row


def check_out_path(path: str) -> Path:
    """The --out path, refused before any game is played when its format is unknown or unwritable."""
    out = Path(path)
    if out.suffix not in FORMATS:
        raise CliError(f"--out {path}: the file name must end in {', '.join(FORMATS)}")
    if not out.parent.exists():
        raise CliError(f"--out {path}: no folder {out.parent}")
    if out.suffix == ".parquet":
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise CliError("--out *.parquet needs pyarrow: pip install -e '.[parquet]'") from None
    return out


def write_out(path: Path, records: list[GameRecord]) -> None:
    """Write the rows; the format follows the extension."""
    if path.suffix == ".jsonl":
        with path.open("w", encoding="utf-8") as f:
            for rec in records:
                f.write(json.dumps(nested_row(rec)) + "\n")
        return
    rows = [flat_row(r) for r in records]
    columns: list[str] = []
    for row in rows:
        columns.extend(k for k in row if k not in columns)
    if path.suffix == ".csv":
        with path.open("w", encoding="utf-8", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=columns, restval="")
            writer.writeheader()
            writer.writerows(rows)
        return
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_pylist([{c: row.get(c) for c in columns} for row in rows])
    pq.write_table(table, path)
