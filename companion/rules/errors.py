"""Errors of the rules: each says in a full sentence what is not allowed and why.

They are ``ValueError`` subclasses, distinct from :class:`companion.cards.InvalidCard` (text that is not
a card): "cannot parse" and "not allowed" are different mistakes and callers may treat them apart.
"""

from __future__ import annotations

__all__ = ["IllegalAction", "IllegalHand", "IllegalPlay", "RulesError"]


class RulesError(ValueError):
    """Something the rules of cribbage do not allow."""


class IllegalHand(RulesError):
    """A hand or crib that cannot be shown (wrong size, a card twice)."""


class IllegalPlay(RulesError):
    """A card laid or a go said in the play that the rules do not allow."""


class IllegalAction(RulesError):
    """A game action out of place: wrong phase, wrong player, a card seen twice in one deal."""
