"""``manage.py deal HM1-N-AAAAAAB``: a deal's scheme, laid out as the table."""

from django.core.management.base import BaseCommand, CommandError

from game.engine import Deal, Game, IllegalMove
from game.engine.scheme import LANGUAGES, arc, describe


class Command(BaseCommand):
    help = "Print a deal's scheme as the table: the arc of 12 piles, the reserve in the middle."

    def add_arguments(self, parser):
        parser.add_argument("code", help="a deal code, like HM1-N-AAAAAAB")
        parser.add_argument("--lang", choices=LANGUAGES, default="en")
        parser.add_argument(
            "--moves",
            default="",
            help="moves to play first, e.g. 'P1+P8 P8+P5+P3'",
        )

    def handle(self, code, lang, moves, **options):
        try:
            game = Game(Deal.from_code(code))
            for move in moves.split():
                game.remove(move.upper().split("+"))
        except (ValueError, IllegalMove) as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(
            f"{game.deal.code} · score {game.score} · moves {game.moves} · {game.status}\n"
        )
        self.stdout.write(arc(game, lang))
        self.stdout.write(describe(game, lang))
