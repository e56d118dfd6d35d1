"""The names (and card texts) that the games' data files give in English, as catalogue messages to translate.

The data files stay the source of the English: `python -m engine.core.datanames` writes them to
`data/locales/en/<game>_names.json`, and a test checks that the catalogue and the data agree. Another language
names a thing in its own catalogue under the same id; the code shows a thing by its id (`name_of`), never by the
data's English.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from engine.core.i18n import LOCALES_DIR, Msg, msg

DATA = Path(__file__).resolve().parents[2] / "data"


def name_of(prefix: str, kind: str, thing: str | int) -> Msg:
    """The catalogue message that names `thing` (an id) of `kind` in a game whose ids start with `prefix`."""
    return msg(f"{prefix}.name.{kind}.{thing}")


def slug(text: str) -> str:
    """An id made of a name that has none in the data (a monster of an encounter)."""
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


def _load(path: str) -> Any:
    return json.loads((DATA / path).read_text(encoding="utf-8"))


def _named(out: dict[str, str], key: str, thing: dict[str, Any]) -> None:
    out[key] = thing["name"]
    if isinstance(thing.get("text"), str):
        out[key + ".text"] = thing["text"]


def risk() -> dict[str, str]:
    board = _load("risk/classic.json")
    out = {f"risk.name.continent.{c['id']}": c["name"] for c in board["continents"]}
    out |= {f"risk.name.territory.{t['id']}": t["name"] for t in board["territories"]}
    out |= {f"risk.name.mission.{m['id']}": m["text"] for m in board["missions"]}
    return out


def wizards_quest() -> dict[str, str]:
    board, cards = _load("wizards_quest/map.json"), _load("wizards_quest/petitions.json")
    out: dict[str, str] = {}
    for region in board["regions"]:
        out[f"wq.name.region.{region['id']}"] = region["name"]
        out |= {f"wq.name.castle.{c['id']}": c["name"] for c in region["castles"]}
    out |= {f"wq.name.water.{w['id']}": w["name"] for w in board["water"]}
    out |= {f"wq.name.card.{c['code']}": c["name"] for c in cards["cards"]}
    return out


def battlemist() -> dict[str, str]:
    board, rules, cards = _load("battlemist/map.json"), _load("battlemist/rules.json"), _load("battlemist/cards.json")
    out = {f"bm.name.region.{r['id']}": r["name"] for r in board["regions"]}
    out |= {f"bm.name.race.{r['id']}": r["name"] for r in rules["races"]}
    for key, ability in rules["abilities"].items():
        _named(out, f"bm.name.ability.{key}", ability)
    for kind, collection in (("action", "actions"), ("event", "events"), ("spell", "spells"),
                             ("artifact", "artifacts")):
        for card in cards[collection]:
            _named(out, f"bm.name.{kind}.{card['id']}", card)
    for adventure in _load("battlemist/quests.json")["adventures"]:
        for monster in adventure.get("encounter", []):
            out[f"bm.name.monster.{slug(monster['name'])}"] = monster["name"]
    return out


CATALOGUES = {"risk_names.json": risk, "wizards_quest_names.json": wizards_quest,
              "battlemist_names.json": battlemist}


def write() -> None:
    """Write the English names catalogues from the data (after a data file's names changed)."""
    for file, build in CATALOGUES.items():
        text = json.dumps(build(), ensure_ascii=False, indent=1) + "\n"
        (LOCALES_DIR / "en" / file).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    write()
