"""A toy game for the solver's unit tests: an explicit tree of named nodes.

``TREE[name] = (mover, [(label, child, probability or None), ...])``; a leaf is
``(None, value)``. Two parents may share a child (a transposition)."""

from __future__ import annotations

from fractions import Fraction

from kifu.core.game import DEALER, Action, State


class Go(Action, frozen=True):
    label: str


class TreeState(State):
    __slots__ = ("node", "tree")

    def __init__(self, tree: dict, root: str = "root") -> None:
        self.tree = tree
        self.node = root
        self.history: list[Action] = []
        self.n = 2
        self.variant = None

    @property
    def to_move(self):
        return self.tree[self.node][0]

    def result(self):
        return None

    def leaf_value(self):
        mover, rest = self.tree[self.node]
        return rest if mover is None else None

    def _edges(self):
        mover, rest = self.tree[self.node]
        return [] if mover is None else rest

    def legal_actions(self):
        return [] if self.to_move == DEALER else [Go(lbl) for lbl, _, _ in self._edges()]

    def chance_outcomes(self):
        if self.to_move != DEALER:
            return None
        return [(Go(lbl), Fraction(p)) for lbl, _, p in self._edges()]

    def push(self, action):
        for lbl, child, _ in self._edges():
            if lbl == action.label:
                self.history.append((self.node, action))
                self.node = child
                return
        raise ValueError(action)

    def pop(self):
        self.node, action = self.history.pop()
        return action

    def key(self):
        return self.node

    def copy(self):
        s = TreeState(self.tree, self.node)
        return s

    def to_line(self):
        return self.node

    def view(self, seat):
        return self.node

    def render(self):
        return self.node
