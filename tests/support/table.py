"""How a test plays at the table: open a deal, tap slots, read the board."""

from playwright.sync_api import expect

RULE_BOOK_TOPS = {
    "P1": "5S",
    "P2": "AH",
    "P3": "KH",
    "P4": "4C",
    "P5": "QH",
    "P6": "5H",
    "P7": "7S",
    "P8": "6D",
    "P9": "10D",
    "P10": "10C",
    "P11": "2D",
    "P12": "KH",
    "R1": "10H",
    "R2": "6S",
    "R3": "3D",
    "R4": "4S",
    "R5": "7D",
    "R6": "5S",
    "R7": "JH",
    "R8": "AC",
}
"""HM1-N-AAAAAAB as dealt: the rule book's example board before its first move."""


def open_lobby(page):
    page.goto("/")
    expect(page.locator('body[data-ready="lobby"]')).to_be_attached()
    return page


def open_deal(page, code="HM1-N-AAAAAAB"):
    page.goto(f"/play/{code}/")
    expect(page.locator('body[data-phase="running"]')).to_be_attached()
    expect(card(page, "P1")).not_to_have_attribute("data-card", "")
    return page


def open_daily(page, name="Ada"):
    """Today's attempt as a player starts it: the day's page, then "Play" (a guest names
    themselves first)."""
    page.goto("/daily/")
    field = page.locator("#daily-name")
    if field.count():
        field.fill(name)
    page.locator("[data-daily-play]").click()
    expect(page.locator('body[data-phase="running"]')).to_be_attached()
    expect(card(page, "P1")).not_to_have_attribute("data-card", "")
    return page


def card(page, slot):
    return page.locator(f'.card[data-slot="{slot}"]')


def tap(page, *slots):
    for slot in slots:
        card(page, slot).click()


def selected(page):
    return page.locator(".card.selected")


def play_move(page, slots, moves_after):
    tap(page, *slots)
    expect(page.locator("#moves")).to_have_text(str(moves_after))


def give_up(page, opener="#resign"):
    """Gives the game up as a player does: "Give up", then the same in its question."""
    page.locator(opener).click()
    page.locator("#give-up [data-confirm]").click()


def set_options(page, **options):
    """Turns settings on or off through the settings menu (moveErrors, placementHelp)."""
    page.locator(".settings-menu summary").click()
    for name, on in options.items():
        page.locator(f'#settings input[name="{name}"]').set_checked(on)
    page.locator(".settings-menu summary").click()


SETTLED = """() => document.getAnimations().every(
    (a) => a.playState !== "running" || a.effect.getComputedTiming().iterations === Infinity
)"""
"""No CSS animation or transition under way (the site has none that runs forever, but one
would not be waited for): what a screenshot waited 400 ms for."""


FRAMES = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
"""Two frames: what a new size sets off (the felt's ResizeObserver) has run and shown."""


def turn_to(page, size):
    """The page's window turned to `size` (width, height), as a phone is turned or a
    window resized, at the top of the page as an opened one is (axe may scroll it)."""
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.evaluate("() => scrollTo(0, 0)")
    page.evaluate(FRAMES)


def each_size(page, sizes):
    """Yields (size, where) for each of `sizes` with the page at it: opened at the first,
    then turned to each of the others (`turn_to`); `where` says it for a failure, as
    "at 390×844 (turned from 1366×768)"."""
    for turn, size in enumerate(sizes):
        if turn:
            turn_to(page, size)
        how = f"turned from {size_label(sizes[turn - 1])}" if turn else "opened there"
        yield size, f"at {size_label(size)} ({how})"


def size_label(size):
    """A (width, height) as a person writes it: 390×844."""
    return f"{size[0]}×{size[1]}"


def sizes_from(sizes, index):
    """`sizes` in the order a page checked at each meets them, beginning at `index` (modulo
    their count): the first is the one it is opened at, the others it is turned to. A
    different `index` from page to page opens pages at every size."""
    first = index % len(sizes)
    return sizes[first:] + sizes[:first]


SHOT = {"type": "jpeg", "quality": 80}
"""How the tests' screenshots are written (`tests/artifacts/*.jpg`): PNG's encoding in the
browser process, and its bytes through Playwright, cost the file that takes 40 of them
(tests/web/test_arc.py) 60-62 CPU-seconds against 53-55 with JPEG (docs/performance.md)."""


def screenshot(page, path):
    """A full-page screenshot once the cards have settled; fails if the page scrolls sideways."""
    page.wait_for_function(SETTLED)
    page.screenshot(path=path, full_page=True, **SHOT)
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"{path.name}: the page scrolls sideways by {overflow}px"


def window_shot(page, path, **options):
    """The window as it is now, a moment a test shows (a message on screen, the felt)."""
    page.screenshot(path=path, **SHOT, **options)


def stray_boxes(page, inner, outer):
    """The `inner` elements (with their text) whose box sticks out of their `outer` ancestor."""
    return page.evaluate(
        """([inner, outer]) => [...document.querySelectorAll(inner)].filter((el) => {
            const box = el.getBoundingClientRect();
            const frame = el.closest(outer).getBoundingClientRect();
            return box.width && (box.left < frame.left || box.right > frame.right);
        }).map((el) => el.textContent.trim())""",
        [inner, outer],
    )


LISTEN = """() => {
    window.heard = [];
    const regions = () => document.querySelectorAll(
        '[aria-live]:not([aria-live="off"]), [role="status"], [role="alert"], [role="log"]');
    const last = new Map([...regions()].map((el) => [el, el.textContent.trim()]));
    new MutationObserver(() => {
        for (const el of regions()) {
            const text = el.textContent.trim();
            if (text === (last.get(el) ?? "")) continue;
            last.set(el, text);
            if (text) window.heard.push(text);
        }
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
}"""
"""Every new text of every live region from now on, in `window.heard`."""
