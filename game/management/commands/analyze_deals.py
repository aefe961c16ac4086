"""`manage.py analyze_deals`: the old spelling of `analyse_deals`, kept for operators'
crontabs and scripts; it says it is deprecated and runs `analyse_deals`."""

from game.management.commands import analyse_deals


class Command(analyse_deals.Command):
    help = "Deprecated: use analyse_deals. " + analyse_deals.Command.help

    def handle(self, *args, **options):
        self.stderr.write("analyze_deals is deprecated: use analyse_deals")
        return super().handle(*args, **options)
