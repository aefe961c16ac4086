"""
The Content-Security-Policy header on every HTTP response.

The browser client is same-origin static modules and stylesheets with no inline
script, so scripts, styles, images and fonts come from this origin only, and
the page talks to this origin only (its API and its race socket, named with its
ws:/wss: scheme because older browsers do not count a socket as 'self').
Inline style *attributes* stay allowed (`style-src-attr`): the players' mini
boards are built with them; a `<style>` element or an inline script is not.
Frames are refused (no page of ours is meant to be framed).
"""

POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; "
    "style-src-attr 'unsafe-inline'; img-src 'self' data:; font-src 'self'; "
    "connect-src 'self' {socket}; frame-ancestors 'none'; base-uri 'none'; "
    "form-action 'self'; object-src 'none'"
)


class ContentSecurityPolicy:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        scheme = "wss" if request.is_secure() else "ws"
        socket = f"{scheme}://{request.get_host()}"
        response.headers.setdefault("Content-Security-Policy", POLICY.format(socket=socket))
        return response
