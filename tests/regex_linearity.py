"""A static check that a regular expression runs in time linear in its subject, from its parse tree.

Python's `re` is a backtracking engine. A pattern is linear here when three rules hold (possessive repeats
and atomic groups never give characters back, so they are exempt from the first two):

1. no unbounded repeat inside another unbounded repeat (`(\\s*x){2,}`, `(a+)+`), nor another choice that
   could take the same characters (`(a|aa)*`, `(ab?)*`): the ways to split a run grow with its length;
2. no two unbounded repeats that can match the same character one after the other, with only optional
   items between them (`\\s+(.*?)\\s*`, `\\s*\\|?\\s*`): each length the first gives back is a new try for
   the second, quadratic, cubic with three;
3. unless the pattern is anchored at the start (`^`, so it is tried at one position), no unbounded repeat
   may match a character that can start a match (`\\[[^\\]]+\\]`, `(\\*\\*)(.+?)\\1`): a search, split or
   sub starts again at each such character and rescans the same run to its end, quadratic on a run of
   `[` or of `**x `.

Character sets are compared on a probe alphabet (Latin-1, the pattern's own literals, and Unicode spaces,
digits and letters), by asking `re` itself whether each probe matches each class or category.
"""

from __future__ import annotations

import re
import re._constants as sre
import re._parser as sre_parse
from collections.abc import Iterable
from typing import Any

_CATEGORY_PATTERNS = {
    sre.CATEGORY_DIGIT: r"\d", sre.CATEGORY_NOT_DIGIT: r"\D", sre.CATEGORY_SPACE: r"\s",
    sre.CATEGORY_NOT_SPACE: r"\S", sre.CATEGORY_WORD: r"\w", sre.CATEGORY_NOT_WORD: r"\W",
    sre.CATEGORY_LINEBREAK: r"\n", sre.CATEGORY_NOT_LINEBREAK: r"[^\n]",
}  # fmt: skip
_UNICODE_PROBES = "\u00a0\u1680\u2000\u2028\u2029\u3000\ufeff\u0663\u0966\uff11\u00e9\u4e2d\ue000\U0001f600"
_REPEATS = (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT)

Node = tuple[Any, Any]


def problems(pattern: re.Pattern[str]) -> list[str]:
    """Why `pattern` may take more than linear time (empty when it cannot)."""
    tree = sre_parse.parse(pattern.pattern, pattern.flags)
    checker = _Checker(pattern, list(tree.data))
    return checker.run()


class _Checker:
    def __init__(self, pattern: re.Pattern[str], items: list[Node]) -> None:
        self.pattern = pattern
        self.items = items
        self.dotall = bool(pattern.flags & re.DOTALL)
        self.groups: dict[int, list[Node]] = {}
        self._collect_groups(items)
        literals = {chr(av) for op, av in self._all_nodes(items) if op in (sre.LITERAL, sre.NOT_LITERAL)}
        self.alphabet = sorted({chr(i) for i in range(256)} | set(_UNICODE_PROBES) | literals)
        self.found: list[str] = []

    def run(self) -> list[str]:
        self._nested(self.items, inside_unbounded=False)
        self._adjacent(self.items)
        anchored = bool(self.items) and self.items[0] in ((sre.AT, sre.AT_BEGINNING), (sre.AT, sre.AT_BEGINNING_STRING))
        if not anchored:
            starts = self._first(self.items)
            for repeat in self._unbounded_repeats(self.items):
                shared = self._chars([repeat]) & starts
                if shared:
                    self.found.append(f"an unbounded repeat runs over {_show(shared)}, which can start a match: "
                                      "a search rescans the run from each one")
        return self.found

    # --- rule 1 and 2 ---------------------------------------------------------------------------------

    def _nested(self, items: list[Node], *, inside_unbounded: bool) -> None:
        for op, av in items:
            if op in (sre.MAX_REPEAT, sre.MIN_REPEAT):
                unbounded = av[1] == sre.MAXREPEAT
                if unbounded and inside_unbounded:
                    self.found.append("an unbounded repeat inside another one")
                if unbounded and self._ambiguous(list(av[2]), self._first(list(av[2]))):
                    self.found.append("a choice inside an unbounded repeat that another choice could also take")
                self._nested(list(av[2]), inside_unbounded=inside_unbounded or unbounded)
            elif op in (sre.POSSESSIVE_REPEAT, sre.ATOMIC_GROUP):
                # never gives back what it matched: only its own body can backtrack, one iteration at a time
                for child in self._children(op, av):
                    self._nested(child, inside_unbounded=False)
            else:
                for child in self._children(op, av):
                    self._nested(child, inside_unbounded=inside_unbounded)

    def _ambiguous(self, items: list[Node], starts: set[str]) -> bool:
        """A choice inside an unbounded repeat's body that another choice or the next iteration (starting
        with one of `starts`) could also take: alternatives that start alike or may match nothing, or an
        optional run of characters the next iteration could start with."""
        for op, av in items:
            if op == sre.BRANCH:
                alternatives = [list(b) for b in av[1]]
                firsts = [self._first(b) for b in alternatives]
                if any(all(self._nullable(n) for n in b) for b in alternatives) or any(
                    firsts[i] & firsts[j] for i in range(len(firsts)) for j in range(i + 1, len(firsts))
                ):
                    return True
            if op in (sre.MAX_REPEAT, sre.MIN_REPEAT) and av[0] < av[1] and self._chars(list(av[2])) & starts:
                return True
            if op not in (sre.POSSESSIVE_REPEAT, sre.ATOMIC_GROUP, sre.ASSERT, sre.ASSERT_NOT) and any(
                self._ambiguous(child, starts) for child in self._children(op, av)
            ):
                return True
        return False

    def _adjacent(self, items: list[Node]) -> None:
        for i, (op, av) in enumerate(items):
            for child in self._children(op, av):
                self._adjacent(child)
            backtracking = [r for r in self._unbounded_repeats([(op, av)]) if r[0] != sre.POSSESSIVE_REPEAT]
            if not backtracking or op in (sre.POSSESSIVE_REPEAT, sre.ATOMIC_GROUP):
                continue
            given = self._chars(backtracking)
            for later in items[i + 1 :]:
                shared = given & self._chars(self._unbounded_repeats([later]))
                if shared:
                    self.found.append(f"two unbounded repeats in a row can both match {_show(shared)}")
                    break
                if not self._nullable(later):
                    break

    # --- the parse tree ---------------------------------------------------------------------------------

    def _children(self, op: Any, av: Any) -> Iterable[list[Node]]:
        if op in _REPEATS:
            yield list(av[2])
        elif op == sre.SUBPATTERN:
            yield list(av[3])
        elif op == sre.BRANCH:
            yield from (list(b) for b in av[1])
        elif op == sre.ATOMIC_GROUP:
            yield list(av)
        elif op in (sre.ASSERT, sre.ASSERT_NOT):
            yield list(av[1])
        elif op == sre.GROUPREF_EXISTS:
            yield from (list(b) for b in av[1:] if b is not None)

    def _all_nodes(self, items: list[Node]) -> Iterable[Node]:
        for op, av in items:
            yield op, av
            if op == sre.IN:
                yield from av
            for child in self._children(op, av):
                yield from self._all_nodes(child)

    def _collect_groups(self, items: list[Node]) -> None:
        for op, av in items:
            if op == sre.SUBPATTERN and av[0] is not None:
                self.groups[av[0]] = list(av[3])
            for child in self._children(op, av):
                self._collect_groups(child)

    def _unbounded_repeats(self, items: list[Node]) -> list[Node]:
        """The unbounded repeats in `items`, outside lookarounds (which consume nothing)."""
        found: list[Node] = []
        for op, av in items:
            if op in (sre.ASSERT, sre.ASSERT_NOT):
                continue
            if op in _REPEATS and av[1] == sre.MAXREPEAT:
                found.append((op, av))
            elif op == sre.GROUPREF and self._unbounded_repeats(self.groups.get(av, [])):
                found.append((sre.MAX_REPEAT, (1, sre.MAXREPEAT, self.groups.get(av, []))))
            for child in self._children(op, av):
                found += self._unbounded_repeats(child)
        return found

    def _nullable(self, node: Node) -> bool:
        op, av = node
        if op in (sre.AT, sre.ASSERT, sre.ASSERT_NOT):
            return True
        if op in _REPEATS:
            return av[0] == 0 or all(self._nullable(n) for n in av[2])
        if op == sre.SUBPATTERN:
            return all(self._nullable(n) for n in av[3])
        if op == sre.ATOMIC_GROUP:
            return all(self._nullable(n) for n in av)
        if op == sre.BRANCH:
            return any(all(self._nullable(n) for n in b) for b in av[1])
        return op == sre.GROUPREF  # a back-reference may repeat an empty group

    def _first(self, items: list[Node]) -> set[str]:
        """The characters a match can start with."""
        first: set[str] = set()
        for op, av in items:
            if op in (sre.ASSERT, sre.ASSERT_NOT, sre.AT):
                continue
            if op in _REPEATS:
                first |= self._first(list(av[2]))
            elif op == sre.SUBPATTERN:
                first |= self._first(list(av[3]))
            elif op == sre.ATOMIC_GROUP:
                first |= self._first(list(av))
            elif op == sre.BRANCH:
                for b in av[1]:
                    first |= self._first(list(b))
            elif op == sre.GROUPREF:
                first |= self._first(self.groups.get(av, []))
            else:
                first |= self._chars([(op, av)])
            if not self._nullable((op, av)):
                break
        return first

    def _chars(self, items: list[Node]) -> set[str]:
        """The characters anything in `items` can consume."""
        chars: set[str] = set()
        for op, av in items:
            if op in (sre.LITERAL, sre.NOT_LITERAL, sre.ANY, sre.IN, sre.CATEGORY):
                chars |= {c for c in self.alphabet if self._matches(op, av, c)}
            elif op == sre.GROUPREF:
                chars |= self._chars(self.groups.get(av, []))
            elif op not in (sre.ASSERT, sre.ASSERT_NOT):
                for child in self._children(op, av):
                    chars |= self._chars(child)
        return chars

    def _matches(self, op: Any, av: Any, char: str) -> bool:
        if op == sre.LITERAL:
            return ord(char) == av
        if op == sre.NOT_LITERAL:
            return ord(char) != av
        if op == sre.ANY:
            return self.dotall or char != "\n"
        if op == sre.RANGE:
            return av[0] <= ord(char) <= av[1]
        if op == sre.CATEGORY:
            return re.fullmatch(_CATEGORY_PATTERNS[av], char) is not None
        if op == sre.IN:
            negate = bool(av) and av[0][0] == sre.NEGATE
            hit = any(self._matches(o, a, char) for o, a in av if o != sre.NEGATE)
            return hit != negate
        raise AssertionError(f"unexpected {op} in a character class")


def _show(chars: set[str]) -> str:
    shown = "".join(sorted(chars)[:8])
    return repr(shown) + ("…" if len(chars) > 8 else "")
