"""
Which deal codes a player may see.

A deal code is the whole deal: the dealing algorithm is public and the
project's own solver wins a numbered deal in a hundredth of a second. So a
code is shown only to people who may know the deal:

- the daily deal's code only once its UTC day is over (until then it is
  "Daily deal · 30 Nov 2026");
- a race on a deal nobody chose (a random deal, every quick race, a rematch)
  only once the race is finished;
- an event's game (game/events/) only once its event is over, for its own player
  too: the others are still playing that deal; and, should its deal be another
  competitive game's too (a daily deal whose day runs on, another event not over),
  only once that one is over as well (`event_open`): an event's end must not
  publish a deal others still compete on;
- a race or game on a code someone typed: always — they chose a known deal.

A code someone typed is never refused or labelled for being today's daily deal:
knowing the code is knowing the deal (the dealing algorithm is public), so a
refusal protected nothing and told a guesser which code was today's. It is a
plain practice game, like any other code; only past days' deals are labelled
as such (`practice_of`).

A ghost race (game/daily/ghosts.py) is a race on a daily deal: its code follows the
day's rule, and the ghost's pile heights, which trace a recorded game's line,
follow the code.
"""

from datetime import timedelta

from django.db.models import Max, Q
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext

from game.base import days
from game.deals import daily
from game.models import DailyDeal, Event, Race
from game.models.events import MAX_MINUTES


def shown_code(race):
    """The race's deal code if a player may see it now, else None."""
    if race.closes_at is not None:
        return race.deal.code if event_open(race.deal_id, race.closes_at) else None
    if race.daily_date is not None:
        return race.deal.code if race.daily_date < days.today() else None
    if race.deal_hidden and race.status != Race.FINISHED:
        return None
    return race.deal.code


def game_url(race):
    """A game's address: a solo game's is /play/<code>/ (which opens the player's game
    in play on that deal) where its code may be shown, so a restart keeps the address
    the player typed; any other game's is its room's, a past day played later's too
    (/play/<code>/ opens a practice game on that deal, not the day's)."""
    code = shown_code(race)
    if race.mode == Race.SOLO and code and not race.deal_hidden and race.daily_date is None:
        return reverse("game:play", args=[code])
    return race.get_absolute_url()


def event_code(deal, ends_at):
    """An event's deal's code once the event is over (`ends_at`) and `event_open`, else None."""
    return deal.code if event_open(deal.pk, ends_at) else None


def event_open(deal_id, ends_at):
    """Whether an event's deal may be known: its event is over (`ends_at`) and so is every
    other competitive game on it (`busy_until`)."""
    now = timezone.now()
    if now < ends_at:
        return False
    busy = busy_until(deal_id, now)
    return busy is None or now >= busy


def busy_until(deal_id, now):
    """When the last competitive game on a deal ends, if any runs or is to come: a daily
    day whose ranked or guests' deal it is ends at its UTC midnight, an event at its end."""
    uses = Q(deal_id=deal_id) | Q(guest_deal_id=deal_id)
    last_day = DailyDeal.objects.filter(uses).aggregate(last=Max("date"))["last"]
    ends = [days.end_of(last_day)] if last_day else []
    recent = now - timedelta(minutes=MAX_MINUTES)  # an event lasts MAX_MINUTES at most
    events = Event.objects.filter(deals__deal_id=deal_id, starts_at__gt=recent)
    ends += [e.ends_at for e in events.only("starts_at", "minutes")]
    return max(ends, default=None)


def ghost_heights_shown(race):
    """Whether a ghost race shows its ghost's pile heights. Move by move they say which
    piles the recorded game took from: its whole line, to follow tap for tap. So only
    when the deal may be known anyway (a past day's), or the line is the player's own."""
    return shown_code(race) is not None or race.ghost_of.player_key == race.host_key


def daily_code(day):
    """A `DailyDeal`'s code once its UTC day is over, else None (leaderboards, month view)."""
    return day.deal.code if day.date < days.today() else None


def practice_of(deal):
    """The date of the past daily deal this deal was, if any (a practice game's label)."""
    past = DailyDeal.objects.filter(deal=deal, date__lt=days.today()).values_list("date", flat=True)
    return past.first()


def daily_label(date):
    """ "Daily deal · 30 Nov 2026": what the page says instead of a hidden daily code."""
    shown = formats.date_format(date, "DATE_FORMAT")
    return gettext("Daily deal · %(date)s") % {"date": shown}


def hidden_label(race):
    """What a page shows instead of a code the player may not see yet."""
    if race.closes_at is not None:
        if timezone.now() >= race.closes_at:
            return gettext("Hidden while another game is played on this deal")
        return gettext("Hidden until the event is over")
    if race.daily_date is None:
        return gettext("Hidden until the race is over")
    if not daily.on_ranked_deal(race):
        shown = formats.date_format(race.daily_date, "DATE_FORMAT")
        return gettext("Guests' deal · %(date)s") % {"date": shown}
    return daily_label(race.daily_date)


def practice_label(date):
    """ "Practice · daily deal of 29 Nov 2026": a past daily deal played again."""
    shown = formats.date_format(date, "DATE_FORMAT")
    return gettext("Practice · daily deal of %(date)s") % {"date": shown}


def later_label(date):
    """ "Daily deal of 29 Nov 2026 · played later": a past day played from the archive."""
    shown = formats.date_format(date, "DATE_FORMAT")
    return gettext("Daily deal of %(date)s · played later") % {"date": shown}
