# One image for every Half Moon Race process: the migrate job and each daphne replica.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    STATIC_ROOT=/app/staticfiles \
    DEBUG=0

WORKDIR /app

# Dependencies first, so a code change does not reinstall them.
COPY pyproject.toml README.md ./
COPY halfmoon_site ./halfmoon_site
COPY game ./game
RUN pip install --no-cache-dir .

COPY . .
# Static files are collected at build time so no replica depends on the finders.
RUN DEBUG=1 python manage.py collectstatic --noinput -v 0

RUN useradd --system --home-dir /app halfmoon && chown -R halfmoon /app
USER halfmoon

EXPOSE 8000
CMD ["daphne", "-b", "0.0.0.0", "-p", "8000", "--proxy-headers", "halfmoon_site.asgi:application"]
