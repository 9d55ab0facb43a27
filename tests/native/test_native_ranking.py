"""`scoring.ranking: lowest` on the native backend: the same ranking keys and winners as Python
(native code returns the scores as they are; the engine turns them for a lowest-wins game)."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

from tabula.interpreter.engine import Engine, load_game

HIGH_CARD = Path(__file__).resolve().parents[2] / "gamedefs" / "high-card"


def test_lowest_wins_ranks_alike_on_both_backends(tmp_path: Path) -> None:
    folder = tmp_path / "low-card"
    shutil.copytree(HIGH_CARD, folder)
    scoring = folder / "scoring.yaml"
    scoring.write_text(scoring.read_text().replace("scoring:\n", "scoring:\n  ranking: lowest\n", 1))
    game = load_game(folder)
    assert game.lowest_wins
    nat, py = Engine(game, backend="native"), Engine(game)
    assert nat.backend == "native", nat.backend_note
    differ = 0
    for seed in range(12):
        a, b = nat.new_game(3, seed), py.new_game(3, seed)
        pick = random.Random(seed)
        while not py.is_terminal(b):
            ids = py.legal_ids(b)
            choice = ids[pick.randrange(len(ids))]
            nat.apply_inplace(a, choice)
            py.apply_inplace(b, choice)
        assert nat.ranking_keys(a) == py.ranking_keys(b)
        assert nat.winners(a) == py.winners(b)
        differ += py.winners(b) != max(range(3), key=lambda p: py.scores(b)[p])
    assert differ  # games where the highest score did not win: the rule is exercised
