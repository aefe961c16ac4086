"""
axe-core on a page, for every browser test that asks it: one place that injects it,
runs it and reads its critical and serious violations.

axe-playwright-python's `Axe().run` hands back axe's whole result: every rule that
passed, was incomplete or did not apply, each with its descriptions and tags, some
100 KB a page that the renderer serializes and Playwright's driver and this process
parse, to read only its violations. Here the page returns the violations alone.
The page's context must bypass the site's CSP (`new_page(bypass_csp=True)`), which
refuses an injected script.
"""

import json

from axe_playwright_python.sync_playwright import Axe

BLOCKING = ("critical", "serious")
OPTIONS = {
    "resultTypes": ["violations"],
    # Experimental in axe 4.x, and the one that caught card labels without their card.
    "rules": {"label-content-name-mismatch": {"enabled": True}},
}
SCRIPT = Axe().axe_script
"""axe-core's source, as the package ships it (axe.min.js)."""


def violations(page, options=OPTIONS):
    """axe-core's violations on the page as it is now, every impact: a list of axe's
    violation objects (id, impact, help, nodes...). axe-core is injected once a document:
    a page audited again (turned to another size) runs the one it has."""
    if not page.evaluate("() => typeof axe === 'object' && typeof axe.run === 'function'"):
        page.evaluate(SCRIPT)
    return page.evaluate(f"axe.run(document, {json.dumps(options)}).then((r) => r.violations)")


def blocking_violations(page, options=OPTIONS):
    """One readable line per node of a critical or serious violation on the page."""
    return [
        f"{violation['id']} ({violation['impact']}): {' '.join(map(str, node['target']))}"
        f" — {violation['help']}"
        for violation in violations(page, options)
        if violation["impact"] in BLOCKING
        for node in violation["nodes"]
    ]
