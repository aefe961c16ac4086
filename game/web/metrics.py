"""
/metrics: this process's figures in the Prometheus text format, for the operator.

Only clients in HALFMOON_METRICS_ALLOW (networks; loopback by default) are
answered; anyone else gets a 403 saying why, so a scrape that is refused is
noticed instead of graphing nothing. The client is who game/base/clients.py says
(behind the entrance: the address nginx was reached from), and the entrance
itself answers /metrics with 404 (deploy/nginx.conf): Prometheus scrapes each
replica directly. The figures are defined in game/base/metrics.py.
"""

import ipaddress

from django.conf import settings
from django.http import HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest

from game.base import clients


def allowed(address):
    """Whether `address` is in one of the networks of HALFMOON_METRICS_ALLOW."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    networks = (ipaddress.ip_network(net, strict=False) for net in settings.HALFMOON_METRICS_ALLOW)
    return any(ip in network for network in networks)


@never_cache
@require_safe
def metrics(request):
    client = clients.request_address(request)
    if not allowed(client):
        refusal = f"/metrics is served only to HALFMOON_METRICS_ALLOW; not to {client}\n"
        return HttpResponse(refusal, status=403, content_type="text/plain; charset=utf-8")
    return HttpResponse(generate_latest(REGISTRY), content_type=CONTENT_TYPE_LATEST)
