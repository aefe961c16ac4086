"""
The deal a new game gets when it is not the day's: one typed as a code (checked
here, so a bad code is a clear refusal and never a 500), or one drawn at random.
"""

import secrets

from game.base.errors import GameError
from game.engine import BadDealCode, format_code
from game.engine.deals import MAX_NUMBER
from game.models import Deal


def random_deal():
    """A numbered deal drawn with the system's randomness: nobody can choose or predict it."""
    return Deal.for_code(format_code(secrets.randbelow(MAX_NUMBER + 1)))


def typed_deal(code):
    """The Deal row of a code someone typed: GameError when it is no code, or a custom
    code no one entered."""
    try:
        return Deal.for_code(code)
    except BadDealCode as exc:
        raise GameError("bad_deal", str(exc)) from None
    except Deal.DoesNotExist:
        raise GameError("no_such_deal", f"no custom deal {code.strip().upper()}") from None
