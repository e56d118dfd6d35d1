"""The strict check of a loaded Battlemist position: what docs/battlemist-position.md implies and pydantic can't
check (the board, the seats, the decks, and that the step records agree with the phase)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from engine.core.check import Fields, quoted
from engine.core.errors import FormatError
from engine.core.orders import Orders
from engine.games.battlemist import ruleset
from engine.games.battlemist.battle import Battle
from engine.games.battlemist.data import BattlemistData, load
from engine.games.battlemist.economy import Build, Economy, Recruit
from engine.games.battlemist.heroes import max_life
from engine.games.battlemist.movement import MoveStep
from engine.games.battlemist.pieces import UNIT_KINDS
from engine.games.battlemist.quest_cards import STAR
from engine.games.battlemist.quest_state import Duel, Encounter, QuestStep
from engine.games.battlemist.setup import PLAYERS, UNDECIDED, action_deck
from engine.games.battlemist.state import BMState, Phase

TURNS = (Phase.QUEST, Phase.MOVEMENT, Phase.COMBAT)
"""The phases of one player's individual turn: `active` is set in these and only these."""
SETUP = (Phase.DRAFT, Phase.BUILD)
ECONOMY_STEP = {Phase.ECONSTART: "econstart", Phase.ORDERS: "orders", Phase.UPKEEP: "upkeep"}
"""The economy record's step in the phases that keep an order book open."""


class Check:
    """One position's checks; the first broken field raises FormatError."""

    def __init__(self, state: BMState, data: BattlemistData) -> None:
        self.s = state
        self.d = data
        ids = data.map.ids
        self.f = Fields(state.players, ids, "region", f"on the Battlemist map ({ids[0]} … {ids[-1]})")
        self.in_play = set(state.regions)

    # ------------------------------------------------------------------------------------------------ helpers

    def region(self, field: str, name: str) -> None:
        """`name` is a region of the map and in play in this game."""
        self.f.place(field, name)
        if name not in self.in_play:
            raise FormatError(field, f"region {quoted(name)} is not in play in this game (see regions)")

    def active_seat(self, field: str, pid: int | None) -> None:
        self.f.seat(field, pid, active=True)

    def seats(self, field: str, pids: Iterable[int], *, active: bool = False) -> None:
        """Seated players, each once."""
        seen: set[int] = set()
        for k, pid in enumerate(pids):
            self.f.seat(f"{field}.{k}", pid, active=active)
            if pid in seen:
                raise FormatError(f"{field}.{k}", f"player {pid} is listed twice")
            seen.add(pid)

    def book(self, field: str, book: Orders[object], seats: Sequence[int] | None = None) -> None:
        """An orders book: seats still playing, each once; drafts and locks only of its seats."""
        self.seats(f"{field}.seats", book.seats, active=True)
        if seats is not None and sorted(book.seats) != sorted(seats):
            raise FormatError(f"{field}.seats", f"{book.seats} should be the players {sorted(seats)}")
        for pid in [*book.drafts, *book.locked]:
            if pid not in book.seats:
                raise FormatError(f"{field}", f"player {pid} has orders or a lock but is not one of its seats "
                                              f"{book.seats}")
        if len(set(book.locked)) != len(book.locked):
            raise FormatError(f"{field}.locked", "a player is locked twice")

    def absent(self, field: str, value: object, why: str) -> None:
        if value is not None:
            raise FormatError(field, f"must be null {why}")

    def present(self, field: str, value: object, why: str) -> None:
        if value is None:
            raise FormatError(field, f"is missing: {why}")

    # ------------------------------------------------------------------------------------------------ seats

    def players(self) -> None:
        s, colour = self.s, {r.id: r.colour for r in self.d.rules.races}
        low, high = PLAYERS
        if not low <= len(s.players) <= high:
            raise FormatError("players", f"Battlemist takes {low} to {high} players, not {len(s.players)}")
        ids: set[int] = set()
        races: set[str] = set()
        for k, p in enumerate(s.players):
            if p.id <= 0 or p.id in ids:
                raise FormatError(f"players.{k}.id", f"{p.id} " + ("is taken by an earlier player" if p.id in ids
                                                                  else "must be a positive number"))
            if p.race is None and s.phase is not Phase.DRAFT:
                raise FormatError(f"players.{k}.race", "is missing: only the race draft (phase draft) leaves a "
                                                       "player without a race")
            if p.race is not None and p.race in races:
                raise FormatError(f"players.{k}.race", f"{p.race} is taken by an earlier player")
            wanted = UNDECIDED if p.race is None else colour[p.race]
            if p.colour != wanted:
                raise FormatError(f"players.{k}.colour", f"{quoted(p.colour)} should be {quoted(wanted)}, "
                                                         "the colour of the player's race")
            ids.add(p.id)
            races.add(p.race or "")
        drafted = [p.race is not None for p in s.players]
        if drafted != sorted(drafted, reverse=True):
            raise FormatError("players", "the draft goes in join order: a player has a race while an earlier "
                                         "one has none")

    # ------------------------------------------------------------------------------------------------ board

    def regions(self) -> None:
        s = self.s
        if len(self.in_play) != len(s.regions):
            raise FormatError("regions", "a region is listed twice")
        for k, r in enumerate(s.regions):
            self.f.place(f"regions.{k}", r)
            if r.startswith("H-") and s.seat_of_race(r[2:]) is None:
                raise FormatError(f"regions.{k}", f"{r} is the homeland of {r[2:]}, a race nobody plays "
                                                  "(BM-BRD-1: it is void)")
        if s.options.board == "fixed" and s.phase is not Phase.DRAFT:
            wanted = {r for r in self.d.map.ids if not r.startswith("H-") or s.seat_of_race(r[2:]) is not None}
            missing = sorted(wanted - self.in_play)
            if missing:
                raise FormatError("regions", f"{missing[0]} is missing: on the fixed map every region of the "
                                             "races in play is in play")
        if s.phase is Phase.DRAFT and s.regions:
            raise FormatError("regions", "must be empty during the race draft: the board is not set yet")

    def troops(self) -> None:
        for region, here in self.s.troops.items():
            self.region(f"troops.{region}", region)
            if not here:
                raise FormatError(f"troops.{region}", "is empty: a region without units has no entry")
            for pid, units in here.items():
                self.active_seat(f"troops.{region}.{pid}", pid)
                if not units.total():
                    raise FormatError(f"troops.{region}.{pid}", "holds no unit: a player with no units in a "
                                                                "region has no entry")

    def artifacts(self) -> None:
        """Artifacts first: a hero's maximum life depends on them."""
        s, q = self.s, self.d.quests
        self.f.seat_keys("artifacts", s.artifacts)
        for pid, held in s.artifacts.items():
            wrong = [c for c in held if c not in q.artifacts]
            if wrong:
                raise FormatError(f"artifacts.{pid}", f"{quoted(wrong[0])} is not an artifact of the quest deck")

    def heroes(self) -> None:
        s, rules = self.s, self.d.rules.hero
        seen: set[tuple[int, int]] = set()
        for k, h in enumerate(s.heroes):
            field = f"heroes.{k}"
            self.active_seat(f"{field}.owner", h.owner)
            if (h.owner, h.number) in seen:
                raise FormatError(f"{field}.number", f"player {h.owner} has two heroes numbered {h.number}")
            seen.add((h.owner, h.number))
            self.region(f"{field}.region", h.region)
            top = max_life(s, h.owner)
            if h.life > top:
                raise FormatError(f"{field}.life", f"{h.life} is more than a hero's maximum life {top}")
        for pid, n in Counter(h.owner for h in s.heroes).items():
            if n > rules.max_alive:
                raise FormatError("heroes", f"player {pid} has {n} heroes; at most {rules.max_alive} are alive")

    def cities(self) -> None:
        s = self.s
        for region, city in s.cities.items():
            self.region(f"cities.{region}", region)
            self.f.count(f"cities.{region}.since", city.since, 0, s.round, "a city is built by the current round")
        for home, pid in s.occupied.items():
            self.region(f"occupied.{home}", home)
            if not home.startswith("H-"):
                raise FormatError(f"occupied.{home}", f"{home} is not a homeland: only homelands are occupied")
            self.active_seat(f"occupied.{home}", pid)
            if s.homeland(pid) == home:
                raise FormatError(f"occupied.{home}", f"player {pid} owns {home} and can't occupy it")

    def stock_and_stars(self) -> None:
        s, rules = self.s, self.d.rules
        self.f.seat_keys("stars", s.stars, every=True)
        if s.phase not in SETUP:
            self.f.seat_keys("stock", s.stock, every=True)
        self.f.seat_keys("stock", s.stock)
        for pid, stars in s.stars.items():
            if stars.spent > stars.owned:
                raise FormatError(f"stars.{pid}.spent", f"{stars.spent} is more than the {stars.owned} Stars "
                                                        "the player owns")
        total = s.star_pool + sum(st.owned for st in s.stars.values())
        if total > rules.star_pool:
            raise FormatError("star_pool", f"the pool and the players' Stars make {total}; there are "
                                           f"{rules.star_pool} Stars of Timorran")

    # ------------------------------------------------------------------------------------------------ cards

    def cards(self) -> None:
        s, d = self.s, self.d
        self.f.seat_keys("hands", s.hands)
        for pid, hand in s.hands.items():
            self.f.count(f"hands.{pid}", len(hand), 0, d.rules.hand_limit, "cards in a hand, BM-ACT-4")
        events = {c.id for c in d.cards.events}
        for k, card in enumerate(s.events):
            if card not in events:
                raise FormatError(f"events.{k}", f"{card} is not an event card")
        for pid, hand in s.hands.items():
            wrong = [c for c in hand if c in events]
            if wrong:
                raise FormatError(f"hands.{pid}", f"{wrong[0]} is an event: events are set aside, never held")
        piles = [("deck", s.deck), ("discard", s.discard), ("events", s.events),
                 *((f"hands.{pid}", h) for pid, h in s.hands.items())]
        left = Counter(action_deck(d, len(s.players)))
        for field, pile in piles:
            for card in pile:
                if card not in d.cards.card:
                    raise FormatError(field, f"{quoted(card)} is not an action or event card")
                if not left[card]:
                    why = "events are not played with 2 players" if card in events and len(s.players) == 2 \
                        else "more copies than the deck has"
                    raise FormatError(field, f"card {quoted(card)}: {why}")
                left[card] -= 1

    def quests(self) -> None:
        s, q = self.s, self.d.quests
        self.f.seat_keys("quests", s.quests)
        for pid, card in s.quests.items():
            self.active_seat(f"quests.{pid}", pid)
            if card not in q.adventure:
                raise FormatError(f"quests.{pid}", f"{quoted(card)} is not an adventure (QA01 …)")
        known = [a.id for a in q.adventures] + list(q.artifacts)
        piles = [("quest_deck", [c for c in s.quest_deck if c != STAR]),
                 ("quest_discard", [c for c in s.quest_discard if c != STAR]),
                 *((f"quests.{pid}", [c]) for pid, c in s.quests.items()),
                 *((f"artifacts.{pid}", a) for pid, a in s.artifacts.items())]
        self.f.cards(piles, known, complete=False)
        stars = s.quest_deck.count(STAR) + s.quest_discard.count(STAR)
        if stars > q.stars:
            raise FormatError("quest_deck", f"the quest deck and its discards hold {stars} {STAR} cards; the game "
                                            f"has {q.stars}")

    def round_effects(self) -> None:
        s, spells = self.s, self.d.cards.spell
        e = s.effects
        for name, regions in (("bountiful", e.bountiful), ("sabotaged", e.sabotaged)):
            for k, r in enumerate(regions):
                self.region(f"effects.{name}.{k}", r)
        for k, pid in enumerate(e.reinforcements):
            self.active_seat(f"effects.reinforcements.{k}", pid)
        self.f.seat_keys("cast", s.cast)
        for pid, cast in s.cast.items():
            for k, entry in enumerate(cast):
                spell = entry.rpartition(":")[2]
                if ":" not in entry or spell not in spells:
                    raise FormatError(f"cast.{pid}.{k}", f"{quoted(entry)} is not <scope>:<spell id> (SP01 …)")
        for pid, kinds in s.combat.standing.items():
            self.f.seat(f"combat.standing.{pid}", pid)
            wrong = [k for k in kinds if k not in UNIT_KINDS]
            if wrong or len(set(kinds)) != len(kinds):
                raise FormatError(f"combat.standing.{pid}", f"lists each of {', '.join(UNIT_KINDS)} at most once")

    def sightings(self) -> None:
        """What Spies and Far Sights showed: another seat's cards and adventure, by a card or spell that reveals."""
        s, d = self.s, self.d
        self.f.seat_keys("sightings", s.sightings)
        sources = {c.id for c in d.cards.actions if c.reveals} | {sp.id for sp in d.cards.spells if sp.reveals}
        for pid, seen in s.sightings.items():
            for k, look in enumerate(seen):
                field = f"sightings.{pid}.{k}"
                self.f.seat(f"{field}.target", look.target)
                if look.target == pid or [o.target for o in seen].count(look.target) > 1:
                    raise FormatError(f"{field}.target", "names another player, once")
                if look.source not in sources:
                    raise FormatError(f"{field}.source", f"{quoted(look.source)} is not {' or '.join(sorted(sources))}")
                self.f.count(f"{field}.round", look.round, 1, s.round, "a round played")
                wrong = [c for c in look.hand if c not in d.cards.actions_by_id]
                if wrong:
                    raise FormatError(f"{field}.hand", f"{quoted(wrong[0])} is not an action card")
                if look.quest is not None and look.quest not in d.quests.adventure:
                    raise FormatError(f"{field}.quest", f"{quoted(look.quest)} is not an adventure (QA01 …)")

    # ------------------------------------------------------------------------------------------------ the round

    def turn(self) -> None:
        s = self.s
        for k, face in enumerate(s.rng.forced):
            self.f.count(f"rng.forced.{k}", face, 1, self.d.rules.die_sides, "a d10")
        if s.phase in SETUP and s.round != 0:
            raise FormatError("round", f"{s.round} should be 0 during setup (phase {s.phase.value})")
        if s.phase not in SETUP:
            cap = s.options.round_cap
            self.f.count("round", s.round, 1, cap or None, "rounds up to the round cap")
        self.seats("order", s.order)
        if s.phase in TURNS:
            self.active_seat("active", s.active)
            if s.active not in s.order:
                raise FormatError("active", f"player {s.active} has no turn in this round's order {s.order}")
        else:
            self.absent("active", s.active, f"outside the players' turns (phase {s.phase.value})")
        if (s.phase is Phase.GAME_OVER) != (s.winners is not None):
            raise FormatError("winners", "lists the winners exactly when the phase is game_over")
        self.seats("winners", s.winners or [])

    def records(self) -> None:
        s = self.s
        phase = s.phase.value
        if s.options.board == "build" and s.phase is not Phase.DRAFT:
            self.present("build", s.build, "build mode keeps the tiles' places")
        elif s.options.board == "fixed":
            self.absent("build", s.build, "on the fixed map")
        if s.build is not None:
            self.build()
        for name, wanted in (("council", Phase.COUNCIL), ("initiative", Phase.INITIATIVE),
                             ("quest_step", Phase.QUEST)):
            value = getattr(s, name)
            if s.phase is wanted:
                self.present(name, value, f"phase {phase} waits on it")
            else:
                self.absent(name, value, f"outside phase {wanted.value} (phase is {phase})")
        if s.council is not None:
            self.council()
        if s.initiative is not None:
            self.initiative()
        if s.quest_step is not None:
            self.quest_step(s.quest_step)
        self.economy()
        self.movement()
        self.combat()

    def build(self) -> None:
        s, b = self.s, self.s.build
        assert b is not None
        if set(b.positions) != self.in_play:
            raise FormatError("build.positions", "places exactly the regions in play (see regions)")
        hexes = list(b.positions.values())
        if len(set(hexes)) != len(hexes):
            raise FormatError("build.positions", "two tiles lie on one hex")
        self.f.seat_keys("build.tiles", b.tiles)
        for pid, tiles in b.tiles.items():
            for k, tile in enumerate(tiles):
                self.f.place(f"build.tiles.{pid}.{k}", tile)
                if tile in self.in_play:
                    raise FormatError(f"build.tiles.{pid}.{k}", f"{tile} is placed already")
        self.seats("build.homes", b.homes)
        for pid in b.homes:
            if s.homeland(pid) in self.in_play:
                raise FormatError("build.homes", f"player {pid}'s homeland is placed already")
        self.seats("build.order", b.order)
        if (s.phase is Phase.BUILD) != (b.turn is not None):
            raise FormatError("build.turn", "names the placer during construction (phase build) and only then")
        if b.turn is not None and b.turn not in b.order:
            raise FormatError("build.turn", f"player {b.turn} is not in build.order")

    def council(self) -> None:
        s, c = self.s, self.s.council
        assert c is not None
        if not s.events or s.events[0] != c.card:
            raise FormatError("council.card", f"{c.card} should be the first of events (the event before the "
                                              "Council now)")
        self.seats("council.order", c.order, active=True)
        for pid in c.votes:
            if pid not in c.order:
                raise FormatError(f"council.votes.{pid}", f"player {pid} is not in the vote order")
        self.f.counts("council.votes", c.votes)
        self.f.count("council.needed", c.needed)
        if c.choices is not None:
            self.present("council.outcome", c.outcome, "private choices follow a decided vote")
            self.book("council.choices", c.choices)
            strangers = sorted(set(c.choices.seats) - set(c.affected))
            if strangers:  # the affected players with a real choice are asked; the others take the default
                raise FormatError("council.choices.seats", f"{strangers} are not among the affected players "
                                                           f"{sorted(c.affected)}")
        for pid, regions in c.affected.items():
            self.f.seat(f"council.affected.{pid}", pid, active=True)
            for k, r in enumerate(regions):
                self.region(f"council.affected.{pid}.{k}", r)

    def initiative(self) -> None:
        ini = self.s.initiative
        assert ini is not None
        self.f.seat_keys("initiative.rolls", ini.rolls)
        for pid, roll in ini.rolls.items():
            self.f.count(f"initiative.rolls.{pid}", roll, 1, self.d.rules.die_sides, "a d10")
        for pid, k in ini.large.items():
            if pid not in ini.rolls:
                raise FormatError(f"initiative.large.{pid}", f"player {pid} has no roll")
            self.f.count(f"initiative.large.{pid}", k, 1, None, "large cities")
        self.book("initiative.choices", ini.choices, list(ini.large))
        for pid, change in ini.choices.drafts.items():
            k = ini.large[pid]
            if change not in (0, k, -k):
                raise FormatError(f"initiative.choices.drafts.{pid}", f"{change} should be 0, {k} or {-k}")

    def quest_step(self, q: QuestStep) -> None:
        s = self.s
        assert s.active is not None
        own = {h.number for h in s.heroes_of(s.active)}
        for name, numbers in (("moved", q.moved), ("haste", q.haste)):
            wrong = [n for n in numbers if n not in own]
            if wrong:
                raise FormatError(f"quest_step.{name}", f"player {s.active} has no hero {wrong[0]}")
        if isinstance(q.fight, Encounter):
            self.encounter(q.fight, own)
        elif isinstance(q.fight, Duel):
            self.duel(q.fight)

    def encounter(self, e: Encounter, own: set[int]) -> None:
        if e.adventure not in self.d.quests.adventure:
            raise FormatError("quest_step.fight.adventure", f"{quoted(e.adventure)} is not an adventure")
        wrong = [n for n in e.candidates if n not in own]
        if wrong or not e.candidates:
            raise FormatError("quest_step.fight.candidates", "lists the active player's heroes who may fight")
        if e.hero is not None and e.hero not in e.candidates:
            raise FormatError("quest_step.fight.hero", f"hero {e.hero} is not one of the candidates")

    def duel(self, duel: Duel) -> None:
        for name, (owner, number) in (("attacker", duel.attacker), ("defender", duel.defender)):
            if self.s.hero(owner, number) is None:
                raise FormatError(f"quest_step.fight.{name}", f"player {owner} has no hero {number}")
        sides = {duel.attacker[0], duel.defender[0]}
        for name, pids in (("waiting", duel.waiting), ("inspired", duel.inspired)):
            if not set(pids) <= sides:
                raise FormatError(f"quest_step.fight.{name}", "lists only the two heroes' owners")

    def economy(self) -> None:
        s, eco = self.s, self.s.economy
        step = ECONOMY_STEP.get(s.phase)
        if s.phase in (*SETUP, Phase.COUNCIL):
            self.absent("economy", eco, f"before the round's economy phase (phase {s.phase.value})")
            return
        if step is not None:
            self.present("economy", eco, f"phase {s.phase.value} keeps its order book there")
            assert eco is not None
            if eco.step != step:
                raise FormatError("economy.step", f"{quoted(eco.step)} should be {quoted(step)} in phase "
                                                  f"{s.phase.value}")
            book = {"econstart": eco.start, "orders": eco.orders, "upkeep": eco.upkeep}[step]
            field = {"econstart": "start", "orders": "orders", "upkeep": "upkeep"}[step]
            self.present(f"economy.{field}", book, f"step {step} has its order book open")
        elif s.phase in (Phase.INITIATIVE, *TURNS) and eco is not None and eco.step != "resolved":
            raise FormatError("economy.step", f"{quoted(eco.step)} should be \"resolved\" (or economy null) once "
                                              "the economy phase is over")
        if eco is not None:
            self.economy_books(eco)

    def economy_books(self, eco: Economy) -> None:
        if eco.start is not None:
            self.book("economy.start", eco.start)
            for pid, plays in eco.start.drafts.items():
                for k, play in enumerate(plays):
                    self.region(f"economy.start.drafts.{pid}.{k}.region", play.region)
        if eco.orders is not None:
            self.book("economy.orders", eco.orders)
            for pid, lines in eco.orders.drafts.items():
                for k, line in enumerate(lines):
                    if isinstance(line, Recruit | Build):
                        self.region(f"economy.orders.drafts.{pid}.{k}.region", line.region)
        if eco.upkeep is not None:
            self.book("economy.upkeep", eco.upkeep)
            for pid, plan in eco.upkeep.drafts.items():
                for k, cut in enumerate(plan.disband):
                    self.region(f"economy.upkeep.drafts.{pid}.disband.{k}.region", cut.region)
        ids: set[int] = set()
        for k, offer in enumerate(eco.offers):
            self.active_seat(f"economy.offers.{k}.source", offer.source)
            self.active_seat(f"economy.offers.{k}.target", offer.target)
            if offer.id in ids or not 1 <= offer.id < eco.next_offer:
                raise FormatError(f"economy.offers.{k}.id", f"{offer.id} should be unique and below next_offer "
                                                            f"{eco.next_offer}")
            ids.add(offer.id)
            self.amounts(f"economy.offers.{k}.give", offer.give)
            self.amounts(f"economy.offers.{k}.get", offer.get)

    def amounts(self, field: str, cost: Mapping[str, int]) -> None:
        for resource, n in cost.items():
            if resource not in ("grain", "wood", "iron"):
                raise FormatError(f"{field}.{resource}", "is not a resource (grain, wood, iron)")
            self.f.count(f"{field}.{resource}", n)

    def movement(self) -> None:
        s, m = self.s, self.s.movement
        if s.phase is Phase.MOVEMENT:
            self.present("movement", m, "phase movement keeps the active player's move orders there")
        if m is None:
            return
        self.f.seat("movement.player", m.player)
        if s.phase in (Phase.MOVEMENT, Phase.COMBAT) and m.player != s.active:
            raise FormatError("movement.player", f"player {m.player}'s step, but it is player {s.active}'s turn")
        if (s.phase is Phase.MOVEMENT) == m.done:
            state = "open" if s.phase is Phase.MOVEMENT else "done (END_MOVE confirmed)"
            raise FormatError("movement.done", f"the movement step is {state} in phase {s.phase.value}")
        self.move_orders(m)

    def move_orders(self, m: MoveStep) -> None:
        for k, order in enumerate(m.orders):
            if not order.path:
                raise FormatError(f"movement.orders.{k}.path", "is empty: a path starts at the units' origin")
            for j, r in enumerate(order.path):
                self.region(f"movement.orders.{k}.path.{j}", r)
        if self.s.phase is not Phase.MOVEMENT:
            return  # after the step, battles may have taken the units that moved
        arrived: dict[tuple[str, str], int] = {}
        for k, order in enumerate(m.orders):  # an order's units stand where its path ends
            key = (order.path[-1], order.unit)
            arrived[key] = arrived.get(key, 0) + order.n
            here = self.s.troops.get(order.path[-1], {}).get(m.player)
            if arrived[key] > (here.get(order.unit) if here is not None else 0):
                raise FormatError(f"movement.orders.{k}", f"moved {arrived[key]} {order.unit} to {order.path[-1]}, "
                                                           f"but player {m.player} has fewer there in troops")
        for r in m.bonus:
            self.region(f"movement.bonus.{r}", r)
        for k, r in enumerate(m.free_regions):
            self.region(f"movement.free_regions.{k}", r)

    def combat(self) -> None:
        s, b = self.s, self.s.combat.battle
        if s.phase is not Phase.COMBAT:
            self.absent("combat.battle", b, f"outside phase combat (phase is {s.phase.value})")
            return
        if s.combat.done:
            raise FormatError("combat.done", "the combat step is over, so the next turn has begun")
        if b is not None:
            self.battle(b)

    def battle(self, b: Battle) -> None:
        s = self.s
        self.region("combat.battle.region", b.region)
        if b.attacker.player != s.active:
            raise FormatError("combat.battle.attacker.player", f"{b.attacker.player} should be the active player "
                                                               f"{s.active}")
        self.active_seat("combat.battle.defender.player", b.defender.player)
        if b.defender.player == b.attacker.player:
            raise FormatError("combat.battle.defender.player", "the attacker can't fight himself")
        sides = {b.attacker.player, b.defender.player}
        for name, side in (("attacker", b.attacker), ("defender", b.defender)):
            for what in ("killed", "killed_before", "lost", "ambush", "curse", "rally_bonus"):
                self.f.count(f"combat.battle.{name}.{what}", getattr(side, what))
        self.f.count("combat.battle.round", b.round)
        self.f.count("combat.battle.pick", b.pick)
        for name, pids in (("rallied", b.rallied), ("undecided", b.undecided),
                           ("rolls", [r.player for r in b.rolls]), ("hits", [h.player for h in b.hits]),
                           ("window", [b.window] if b.window is not None else []),
                           ("winner", [b.winner] if b.winner is not None else [])):
            wrong = [p for p in pids if p not in sides]
            if wrong:
                raise FormatError(f"combat.battle.{name}", f"player {wrong[0]} is not a side of this battle")
        for k, roll in enumerate(b.rolls):
            if len(roll.units) != len(roll.faces):
                raise FormatError(f"combat.battle.rolls.{k}", "has one unit for each die face")
            for j, face in enumerate(roll.faces):
                self.f.count(f"combat.battle.rolls.{k}.faces.{j}", face, 1, self.d.rules.die_sides, "a d10")
        for k, hits in enumerate(b.hits):
            self.f.count(f"combat.battle.hits.{k}.kills", hits.kills)
            self.f.count(f"combat.battle.hits.{k}.routs", hits.routs)

    def someone_acts(self) -> None:
        """Outside the game's end a position always waits on a decision (the automatic steps have all run)."""
        if self.s.phase is not Phase.GAME_OVER and not ruleset.pending(self.s):
            raise FormatError("phase", f"nobody has a decision in phase {self.s.phase.value}: the records of the "
                                       "step (council, economy, initiative, quest_step, movement, combat) are "
                                       "missing or finished")


def check_position(state: BMState) -> None:
    """Raise FormatError at the first field that contradicts the map, the seats, the decks or the phase."""
    c = Check(state, load())
    for step in (c.players, c.turn, c.regions, c.troops, c.artifacts, c.heroes, c.cities, c.stock_and_stars,
                 c.cards, c.quests, c.round_effects, c.sightings, c.records, c.someone_acts):
        step()
