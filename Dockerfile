# One image for every Half Moon Race process: the migrate job and each daphne replica.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    STATIC_ROOT=/app/staticfiles \
    DEBUG=0

WORKDIR /app

# The locked runtime set first (requirements/base.txt, `make lock`: every file checked
# against its sha256), so a code change does not reinstall it; the project itself is
# built over it after, by the locked setuptools.
COPY requirements/base.txt requirements/base.txt
RUN pip install --no-cache-dir --require-hashes --no-deps -r requirements/base.txt

COPY . .
RUN pip install --no-cache-dir --no-deps --no-build-isolation .
# Static files are collected at build time so no replica depends on the finders:
# hashed names (cached for a year), with gzip and brotli copies (game/web/assets.py).
RUN DEBUG=1 python manage.py collectstatic --noinput -v 0

RUN useradd --system --home-dir /app halfmoon && chown -R halfmoon /app
USER halfmoon

EXPOSE 8000
CMD ["python", "-m", "halfmoon_site.daphne_uvloop", "-b", "0.0.0.0", "-p", "8000", "halfmoon_site.asgi:application"]
