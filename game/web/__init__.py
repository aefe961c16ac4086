"""
HTTP: the pages (lobby, table, race, replay, daily), the JSON API, /healthz and the
Content-Security-Policy; views only translate between requests and the packages below.
"""
