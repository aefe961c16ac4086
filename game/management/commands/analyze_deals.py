"""`manage.py analyze_deals`: the old spelling of `analyse_deals`, kept for operators'
crontabs and scripts; it says it is deprecated and runs `analyse_deals`."""

import sys

from game.management.commands import analyse_deals


class Command(analyse_deals.Command):
    help = "Deprecated: use analyse_deals. " + analyse_deals.Command.help

    def handle(self, *args, **options):
        sys.stderr.write("analyze_deals is deprecated: use analyse_deals\n")
        return super().handle(*args, **options)
