"""
HTTP, every view of urls.py: the pages (lobby, race, boards, profiles, events, sign-up),
the JSON API, /healthz, /metrics and the CSP; views translate, the packages below read.
"""
