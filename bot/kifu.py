"""Game records for people and machines: a KIF-like text (棋譜) and a re-importable JSON.

The text has a header (game, players, date, result, options, seed once the game is over, the start
position as a diagram: none of these boards is one a kifu tool knows) and then the numbered moves
in each game's kifu notation (``display_move``: ▲/△ in two-player games as in shogi kifu, seat
names otherwise); chance outcomes are listed where they happened. Both read back:
:func:`read_record` takes either form (JSON or KIF text) and replays it through the engine, so a
file that does not describe a legal game is refused with the line that is wrong.

The JSON is ``engines.record.Record.to_json`` plus a ``"banmen"`` object of metadata.
"""

from __future__ import annotations

import codecs
import contextlib
import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bot import i18n
from bot.i18n import Lang, t
from bot.model import StoredOutcome
from engines.core import (
    CHANCE,
    SIMULTANEOUS,
    TERMINAL,
    EngineError,
    Game,
    PositionError,
    State,
    Text,
)
from engines.record import Entry, Record
from engines.registry import get_game

MARKS = ("▲", "△")
HIDDEN = "?"
"""The move text of a log entry the viewer may not see."""
MAX_RECORD_BYTES = 1024 * 1024
"""The largest record file read (a thousand-move game takes some 40 KB)."""
KIF_ENCODING = "cp932"
"""Shift-JIS as Windows writes it, which ordinary kifu tools expect of a ``.kif`` file."""


@dataclass(frozen=True, slots=True)
class RecordMeta:
    """What a record says about the game besides its moves."""

    game_id: int | None = None
    title_en: str = ""
    title_ja: str = ""
    players: tuple[str, ...] = ()
    seat_names: tuple[tuple[str, str], ...] = ()  # (en, ja) per seat
    created: datetime | None = None
    started: datetime | None = None
    finished: datetime | None = None
    status: str = ""
    result: StoredOutcome | None = None
    clock: str = "none"
    extra: dict[str, Any] = field(default_factory=dict)
    reseed: tuple[int, str] | None = None
    """An imported game's second seed and the engine ply from which it picked the chance steps
    (shown with the seed, once the game is over)."""


NOWHERE = Text("", "")
"""No place in the record to name before a reason."""


class RecordError(ValueError):
    """A record that cannot be imported: ``text`` says what is wrong (the catalogue's ``key``
    with ``params``), starting with the line."""

    def __init__(self, line: int, key: str, /, **params: Any) -> None:
        reason = i18n.text(key, **params)
        self.line = line
        self.text = i18n.text("kif.at_line", line=line, reason=reason) if line > 0 else reason
        super().__init__(self.text.en)

    @classmethod
    def of(cls, line: int, reason: Text, where: Text = NOWHERE) -> RecordError:
        """An engine's reason (a move or an option it refused), after the move it is about."""
        return cls(line, "kif.reason", where=where, reason=reason)


def _labels(key: str) -> tuple[str, str]:
    """A header label as it may be read back: in English (any case) or in Japanese."""
    return t(key, Lang.EN).lower(), t(key, Lang.JA)


def _when(when: datetime | None) -> str:
    return when.strftime("%Y/%m/%d %H:%M:%S UTC") if when else "-"


def _mark(meta: RecordMeta, seat: int, players: int, lang: str) -> str:
    """What a move line puts before the move: ▲/△, a seat name, or nothing (solitaire)."""
    if players == 1:
        return ""
    if players == 2:
        return MARKS[seat]
    if seat < len(meta.seat_names):
        en, ja = meta.seat_names[seat]
        return Lang.of(lang).pick(en, ja) + " "
    return f"[{seat + 1}] "


# --- writing ------------------------------------------------------------------------------------


def kif_text(meta: RecordMeta, record: Record, lang: str = "ja", *, header: bool = True) -> str:
    """The KIF-like record. Moves whose text is ``"?"`` are shown as hidden."""
    lines: list[str] = []
    if header:
        lines += _header(meta, record, lang)
    number = 0
    for entry, shown, secret in _shown_entries(record, lang):
        if entry.actor == CHANCE:
            lines.append(f"    * {t('kif.chance', lang)}: {shown}")
            continue
        if entry.move == HIDDEN:
            shown = t("kif.hidden", lang)
        shown = _with_seat(meta, entry.actor, record.players, lang, shown)
        if secret:  # a secret setup is no ply: unnumbered, like a chance outcome
            lines.append(f"    * {t('kif.secret', lang)}: {shown}")
            continue
        number += 1
        lines.append(f"{number:>4} {shown}")
    if header and meta.result:
        lines.append("")
        lines.append(f"{t('kif.moves', lang)}: {number}")
    return "\n".join(lines) + "\n"


def _with_seat(meta: RecordMeta, seat: int, players: int, lang: str, shown: str) -> str:
    """``shown`` with the seat's mark in front, unless it already starts with it or its name."""
    mark = _mark(meta, seat, players, lang)
    names = [mark.strip()]
    if seat < len(meta.seat_names):
        names.append(Lang.of(lang).pick(*meta.seat_names[seat]))
    if any(name and shown.startswith(name) for name in names):
        return shown
    return mark + shown


def _header(meta: RecordMeta, record: Record, lang: str) -> list[str]:
    title = Lang.of(lang).pick(meta.title_en, meta.title_ja)
    ident = f" #{meta.game_id}" if meta.game_id is not None else ""
    lines = [f"# Banmen{ident}", f"{t('kif.game', lang)}: {title} ({record.game})"]
    for seat in range(record.players):
        name = meta.players[seat] if seat < len(meta.players) else ""
        if seat < len(meta.seat_names):
            en, ja = meta.seat_names[seat]
            seat_name = Lang.of(lang).pick(en, ja)
        else:
            seat_name = str(seat + 1)
        mark = MARKS[seat] if record.players == 2 else ""
        lines.append(f"{mark}{seat_name}: {name}")
    lines.append(f"{t('kif.date', lang)}: {_when(meta.started or meta.created)}")
    if meta.finished:
        lines.append(f"{t('kif.end', lang)}: {_when(meta.finished)}")
    if meta.clock and meta.clock != "none":
        lines.append(f"{t('kif.clock', lang)}: {meta.clock}")
    if meta.result:
        text = Text(meta.result.en, meta.result.ja)
        lines.append(f"{t('kif.result', lang)}: {text.get(lang)}")
        # The same, for machines: an end the host decided cannot be read off the moves.
        written = json.dumps(meta.result.to_json(), ensure_ascii=False, sort_keys=True)
        lines.append("# result: " + written)
    if record.options:
        opts = " ".join(f"{k}={v}" for k, v in sorted(record.options.items()))
        lines.append(f"options: {opts}")
    if record.seed:  # shown once the game is over
        lines.append(f"seed: {record.seed}")
    if meta.reseed is not None:
        lines.append(f"seed from ply {meta.reseed[0]}: {meta.reseed[1]}")
    lines += _diagram(record, lang)
    lines.append("")
    return lines


def _diagram(record: Record, lang: str) -> list[str]:
    """The start position: its text (which ``from_position`` reads) and the board drawn row by
    row below it. Every board here is non-standard for a kifu tool, so each record has one."""
    try:
        position = record.start().position()
    except EngineError:
        return []
    board = position.split(" ", 1)[0]
    if "." not in board:  # FEN-like rows: a number is that many empty cells
        board = re.sub(r"\d+", lambda m: "." * int(m[0]), board)
    rows = [f"  |{row}|" for row in board.split("/")]
    return [f"{t('kif.start', lang)}: {position}", *rows]


def _shown_entries(record: Record, lang: str) -> Iterator[tuple[Entry, str, bool]]:
    """Each entry with its kifu form (``display_move``), found by replaying the record (the
    canonical text once that is not possible: an unknown game, a hidden move), and whether it
    was made at a secret step."""
    state: State[Any] | None
    try:
        state = record.start()
    except EngineError:
        state = None
    secret = False  # once the state is lost to a hidden setup, the setup goes on
    for entry in record.entries:
        shown = entry.move
        if state is not None:
            secret = state.current_player() == SIMULTANEOUS
        if state is not None and entry.move != HIDDEN:
            player = None if entry.actor == CHANCE else entry.actor
            try:
                move = state.parse_move(entry.move, player)
                shown = state.display_move(move, lang)
                state = state.apply(move, player)
            except EngineError:
                state = None
        elif entry.move == HIDDEN:
            state = None
        yield entry, shown, secret


def kif_files(meta: RecordMeta, record: Record, stem: str) -> list[tuple[str, bytes]]:
    """``stem.kifu`` (UTF-8) and, when every character fits Shift-JIS, ``stem.kif`` in it."""
    text = kif_text(meta, record, "ja")
    files = [(f"{stem}.kifu", text.encode("utf-8"))]
    with contextlib.suppress(UnicodeEncodeError):  # a name or a sign Shift-JIS lacks
        files.append((f"{stem}.kif", text.encode(KIF_ENCODING)))
    return files


def export_json(meta: RecordMeta, record: Record) -> str:
    """The engine record's JSON with a ``"banmen"`` metadata object."""
    data = json.loads(record.to_json())
    data["banmen"] = {
        "game_id": meta.game_id,
        "title": {"en": meta.title_en, "ja": meta.title_ja},
        "players": list(meta.players),
        "created": meta.created.isoformat() if meta.created else None,
        "started": meta.started.isoformat() if meta.started else None,
        "finished": meta.finished.isoformat() if meta.finished else None,
        "status": meta.status,
        "result": meta.result.to_json() if meta.result else None,
        "clock": meta.clock,
    }
    if meta.reseed is not None:
        data["banmen"]["reseed"] = {"from_ply": meta.reseed[0], "seed": meta.reseed[1]}
    return json.dumps(data, ensure_ascii=False, indent=1)


# --- reading ------------------------------------------------------------------------------------


def import_json(text: str) -> tuple[dict[str, Any], Record]:
    """The metadata and the record of an exported JSON (raises PositionError if it is not one)."""
    record = Record.from_json(text)
    try:
        meta = json.loads(text).get("banmen") or {}
    except (ValueError, AttributeError) as exc:  # from_json already accepted it; be safe
        raise PositionError(i18n.text("record.not_banmen", reason=str(exc))) from exc
    if not isinstance(meta, dict):
        meta = {}
    return meta, record


@dataclass(frozen=True, slots=True)
class ReadRecord:
    """A record file read back: the record (canonical moves), the state it replays to, the
    result the file states (``None``: none) and the line that states it."""

    record: Record
    state: State[Any]
    secret: tuple[bool, ...]
    """Per entry: made while moves were secret (a setup, or chance during one)."""
    result: Any = None
    result_line: int = 0


def decode_record(data: bytes) -> str:
    """The text of a record file: UTF-8 (with or without a BOM), else Shift-JIS (a ``.kif``)."""
    if len(data) > MAX_RECORD_BYTES:
        raise too_large(len(data))
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        first = exc
    try:
        return data.decode(KIF_ENCODING)
    except UnicodeDecodeError as exc:  # the line where the better guess went wrong
        line = data[: max(first.start, exc.start)].count(b"\n") + 1
        raise RecordError(line, "kif.encoding") from None


def too_large(size: int) -> RecordError:
    return RecordError(0, "kif.too_large", size=str(size), limit=str(MAX_RECORD_BYTES))


def read_record(text: str) -> ReadRecord:
    """A JSON record or a KIF-like text, replayed through its game's engine. Raises
    :class:`RecordError` naming the line of the first thing that does not fit."""
    if len(text) > MAX_RECORD_BYTES:
        raise too_large(len(text.encode("utf-8", "surrogatepass")))
    if "\x00" in text or not _is_text(text):
        raise RecordError(0, "kif.not_text")
    if text.lstrip().startswith("{"):
        return _read_json(text)
    return _read_kif(text)


def _line_of(text: str, pattern: str, nth: int = 0) -> int:
    """The line of the ``nth`` match of ``pattern`` in ``text`` (0 when there is none)."""
    for i, match in enumerate(re.finditer(pattern, text)):
        if i == nth:
            return text.count("\n", 0, match.start()) + 1
    return 0


def _is_text(text: str) -> bool:
    """False for a text holding what UTF-8 cannot (a lone surrogate, also as a JSON escape)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _read_json(text: str) -> ReadRecord:
    try:
        data = json.loads(text)
        if not _is_text(json.dumps(data, ensure_ascii=False)):
            escaped = _line_of(text, r"\\u[dD][89a-fA-F]")
            raise RecordError(escaped, "kif.not_text")
    except json.JSONDecodeError as exc:
        raise RecordError(exc.lineno, "kif.not_json", reason=exc.msg) from exc
    except RecursionError as exc:
        raise RecordError(0, "kif.too_deep") from exc
    try:
        meta, record = import_json(text)
    except EngineError as exc:
        raise RecordError.of(0, exc.text) from exc
    key = "game"
    try:
        game = get_game(record.game)
        key = "players"
        game.check_players(record.players)
        key = "options"
        state: State[Any] = game.new_game(record.players, record.options)
    except EngineError as exc:
        raise RecordError.of(_line_of(text, rf'"{key}"\s*:'), exc.text) from exc
    replay = _Replay(state, record.players)
    for i, entry in enumerate(record.entries):
        line = _line_of(text, r'"move"\s*:', i)
        where = i18n.text("kif.move_at", ply=str(i + 1))
        if entry.actor == CHANCE:
            replay.chance(entry.move, line, where)
        else:
            replay.seat(entry.actor, entry.move, line, where)
    replay.finish(_line_of(text, r'"moves"\s*:'))
    options = game.resolve_options(record.options)
    read = Record(record.game, record.players, options, record.seed, tuple(replay.entries))
    line = _line_of(text, r'"result"\s*:')
    return ReadRecord(read, replay.state, tuple(replay.secret), meta.get("result"), line)


class _Replay:
    """Plays a record's entries one by one; each failure names its line."""

    def __init__(self, state: State[Any], players: int) -> None:
        self.state = state
        self.players = players
        self.entries: list[Entry] = []
        self.secret: list[bool] = []
        self.plies = 0

    def _check_visible(self, spellings: Sequence[str], line: int) -> None:
        if any(s.strip() in (HIDDEN, *_labels("kif.hidden")) for s in spellings):
            raise RecordError(line, "kif.hidden_move")

    def chance(self, text: str, line: int, where: Text = NOWHERE) -> None:
        self._check_visible([text], line)
        state = self.state
        if state.current_player() != CHANCE:
            raise RecordError(line, "kif.chance_not_due", where=where)
        try:
            move = state.parse_move(text)
        except EngineError as exc:
            raise RecordError.of(line, exc.text, where) from exc
        self.entries.append(Entry(CHANCE, state.format_move(move)))
        self.secret.append(state.hides_moves())
        self.state = state.apply(move)

    def seat(
        self,
        actor: int | None,
        text: str,
        line: int,
        where: Text = NOWHERE,
        *,
        secret: bool | None = None,
    ) -> None:
        """Apply ``text`` for ``actor`` (``None``: whoever the line names or is to move).
        ``secret``: the line says whether this is a secret step (``None``: it does not say)."""
        state = self.state
        candidates = list(_spellings(state.game, self.players, text))
        self._check_visible(candidates, line)
        current = state.current_player()
        if current == CHANCE:
            raise RecordError(line, "kif.chance_missing", where=where)
        if current == TERMINAL:
            raise RecordError(line, "kif.over", where=where, ply=str(self.plies))
        if secret is not None and secret != (current == SIMULTANEOUS):
            key = "kif.secret_misplaced" if secret else "kif.secret_due"
            raise RecordError(line, key, where=where)
        if actor is None:
            actor = _actor_of(state, self.players, text)
            if actor is None:
                raise RecordError(line, "kif.whose_secret", where=where)
        elif current != SIMULTANEOUS and actor != current:
            raise RecordError(
                line, "kif.wrong_seat", where=where, seat=str(actor + 1), due=str(current + 1)
            )
        error: EngineError | None = None
        for spelling in candidates:
            try:
                move = state.parse_move(spelling, actor)
                break
            except EngineError as exc:
                error = exc  # the last spelling's reason: the move without its seat mark
        else:
            assert error is not None
            raise RecordError.of(line, error.text, where)
        self.entries.append(Entry(actor, state.format_move(move)))
        self.secret.append(current == SIMULTANEOUS)
        self.state = state.apply(move, actor)
        if current != SIMULTANEOUS:
            self.plies += 1

    def finish(self, line: int) -> None:
        if self.state.current_player() == CHANCE:
            raise RecordError(line, "kif.stops_before_chance")


def _prefixes(game: Game[Any], players: int) -> list[tuple[int, str]]:
    """What a move line may start with to say whose move it is, per seat (longest first)."""
    out: list[tuple[int, str]] = []
    for seat in range(players):
        if players == 2:
            out.append((seat, MARKS[seat]))
        for lang in ("ja", "en"):
            out.append((seat, game.seat_name(seat, lang, players)))
        out.append((seat, f"[{seat + 1}]"))
    return sorted(out, key=lambda p: -len(p[1]))


def _spellings(game: Game[Any], players: int, text: str) -> Iterator[str]:
    """The text as written, then without the seat's mark or name in front."""
    yield text
    for _, prefix in _prefixes(game, players):
        if prefix and text.startswith(prefix) and text[len(prefix) :].strip():
            yield text[len(prefix) :].strip()


def _actor_of(state: State[Any], players: int, text: str) -> int | None:
    """The seat a line names, at a secret (simultaneous) step; at any other step the one to
    move."""
    current = state.current_player()
    if current != SIMULTANEOUS:
        return current
    for seat, prefix in _prefixes(state.game, players):
        if prefix and text.startswith(prefix) and seat in state.acting_players():
            return seat
    return None


_MOVE_LINE = re.compile(r"^\s*(?P<number>[0-9]{1,6})\s+(?P<move>\S.*?)\s*$")
_CHANCE_LINE = re.compile(r"^\s*\*\s*(?P<label>[^:：]+?)\s*[:：]\s*(?P<move>.*?)\s*$")
_HEADER_LINE = re.compile(r"^(?P<key>[^:：]+?)\s*[:：]\s*(?P<value>.*?)\s*$")
_RESULT_LINE = re.compile(r"^#\s*result\s*:\s*(?P<json>.*)$")
_GAME_ID = re.compile(r"\((?P<id>[A-Za-z0-9_-]+)\)\s*$")


@dataclass
class _KifHeader:
    values: dict[str, tuple[str, int]] = field(default_factory=dict)
    """Header key (lower case) -> (value, line)."""
    seats: list[tuple[str, int]] = field(default_factory=list)
    """Keys that may be seat lines, with their lines."""
    result: Any = None
    result_line: int = 0


def _read_kif(text: str) -> ReadRecord:
    lines = text.splitlines()
    header = _KifHeader()
    body = 0
    for body, raw in enumerate(lines):  # ``body``: where the moves begin
        line = raw.strip()
        number = body + 1
        if _MOVE_LINE.match(raw) or _CHANCE_LINE.match(raw):
            break
        if not line or line.startswith("|"):
            continue
        if found := _RESULT_LINE.match(line):
            try:
                header.result = json.loads(found["json"])
            except (ValueError, RecursionError) as exc:
                raise RecordError(number, "kif.bad_result", reason=str(exc)) from exc
            header.result_line = number
            continue
        if line.startswith("#"):
            continue
        if found := _HEADER_LINE.match(line):
            key = found["key"].strip()
            header.values.setdefault(key.lower(), (found["value"], number))
            header.seats.append((key, number))
            continue
        raise RecordError(number, "kif.unreadable")
    else:
        body = len(lines)
    game, state, players = _kif_start(header)
    replay = _Replay(state, players)
    last = body
    for index in range(body, len(lines)):
        raw, number = lines[index], index + 1
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        last = number
        if found := _CHANCE_LINE.match(raw):
            label = found["label"].lower()
            if label in _labels("kif.chance"):
                replay.chance(found["move"], number)
            elif label in _labels("kif.secret"):
                replay.seat(None, found["move"], number, secret=True)
            else:
                raise RecordError(number, "kif.unreadable")
        elif found := _MOVE_LINE.match(raw):
            if int(found["number"]) != replay.plies + 1:
                raise RecordError(
                    number, "kif.out_of_order", ply=str(replay.plies + 1), found=found["number"]
                )
            replay.seat(None, found["move"], number, secret=False)
        elif (found := _HEADER_LINE.match(line)) and found["key"].lower() in _labels("kif.moves"):
            continue  # the footer: how many moves
        else:
            raise RecordError(number, "kif.unreadable")
    replay.finish(last)
    seed = header.values.get("seed", ("", 0))[0]
    options = game.resolve_options(_kif_options(header))
    record = Record(game.id, players, options, seed, tuple(replay.entries))
    secret = tuple(replay.secret)
    return ReadRecord(record, replay.state, secret, header.result, header.result_line)


def _kif_start(header: _KifHeader) -> tuple[Game[Any], State[Any], int]:
    """The game, its start position and the number of players the header describes."""
    named = next((header.values[k] for k in _labels("kif.game") if k in header.values), None)
    if named is None:
        raise RecordError(1, "kif.no_game")
    value, line = named
    found = _GAME_ID.search(value)
    if found is None:
        raise RecordError(line, "kif.no_game_id")
    try:
        game = get_game(found["id"])
    except EngineError as exc:
        raise RecordError.of(line, exc.text) from exc
    players = _players(game, header)
    opt_line = header.values.get("options", ("", 0))[1]
    try:
        state: State[Any] = game.new_game(players, _kif_options(header))
    except EngineError as exc:
        raise RecordError.of(opt_line or line, exc.text) from exc
    for key in _labels("kif.start"):
        if key in header.values:
            shown, start_line = header.values[key]
            if shown.strip() != state.position():
                raise RecordError(
                    start_line,
                    "kif.not_the_start",
                    game=Text(game.id, game.title_ja),
                    position=state.position(),
                )
    return game, state, players


def _kif_options(header: _KifHeader) -> dict[str, str]:
    options: dict[str, str] = {}
    value, line = header.values.get("options", ("", 0))
    for pair in value.split():
        name, sep, setting = pair.partition("=")
        if not sep:
            raise RecordError(line, "kif.bad_option", pair=pair)
        options[name] = setting
    return options


def _players(game: Game[Any], header: _KifHeader) -> int:
    """How many seats the header names (a game with one player count needs none named)."""
    for count in sorted(game.player_counts, reverse=True):
        names = {
            game.seat_name(seat, lang, count): seat
            for seat in range(count)
            for lang in ("en", "ja")
        }
        seen = {names[key.lstrip("▲△")] for key, _ in header.seats if key.lstrip("▲△") in names}
        if seen == set(range(count)):
            return count
    if len(game.player_counts) == 1:
        return game.player_counts[0]
    counts = "/".join(str(n) for n in game.player_counts)
    raise RecordError(1, "kif.seats", counts=counts)
