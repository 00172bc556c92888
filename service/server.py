"""Run the app under uvicorn: in this process, or in ``workers`` processes sharing one port."""

from __future__ import annotations

import os
import socket
import tempfile

from kb.settings import Settings
from service.app import SETTINGS_ENV, create_app
from service.metrics import MULTIPROC_ENV
from service.protocol import ReadTimeoutH11Protocol, configure


def listening_socket(host: str, port: int) -> socket.socket:
    """The shared listening socket, made as a TCP socket by name.

    uvicorn's own (``socket.socket(family)``) has protocol 0, and asyncio turns
    Nagle's algorithm off only on sockets whose protocol is TCP: through it
    every small answer waited for the client's delayed ACK, 40 ms a request
    (eval/results/bench.md measured 23 req/s at concurrency 1).
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.set_inheritable(True)
    return sock


def uvicorn_options(settings: Settings) -> dict:
    """uvicorn's knobs, all from settings. X-Forwarded-For is believed only from the listed proxies:
    uvicorn's default believes it from loopback, so any local client could pick its rate-limit address."""
    return {"host": settings.host, "port": settings.port, "log_level": settings.log_level,
            "access_log": settings.access_log, "proxy_headers": bool(settings.trusted_proxies),
            "forwarded_allow_ips": ",".join(settings.trusted_proxies) or None,
            "timeout_keep_alive": settings.keep_alive_timeout_s, "limit_concurrency": settings.max_connections,
            "timeout_graceful_shutdown": int(settings.shutdown_grace_s), "server_header": False,
            # h11 with a deadline for each request's headers and body (service.protocol)
            "http": ReadTimeoutH11Protocol}


def serve(settings: Settings) -> None:
    import uvicorn
    from uvicorn.supervisors import Multiprocess

    from kb.index import load_index
    from service.app import load_runtime

    options = uvicorn_options(settings)
    configure(settings)
    # Start-up faults (no index, a damaged one, a missing model) surface here, before uvicorn, as the
    # one-line errors `kb` prints with exit code 2, not as a traceback from inside the server.
    if settings.workers == 1:
        uvicorn.run(create_app(settings, runtime=load_runtime(settings)), **options)
        return
    load_index(settings.index_dir)  # the workers load it again; this only checks it before they start
    # Each worker process builds its own app (and loads the index once) from the same settings,
    # handed over in the environment; the supervisor restarts a worker that dies.
    os.environ[SETTINGS_ENV] = settings.model_dump_json()
    # The workers' metrics are summed from files in one fresh folder (prometheus-client's multiprocess mode).
    os.environ[MULTIPROC_ENV] = tempfile.mkdtemp(prefix="kb-metrics-")
    config = uvicorn.Config("service.app:create_app_from_environment", factory=True, workers=settings.workers,
                            **options)
    Multiprocess(config, sockets=[listening_socket(settings.host, settings.port)]).run()
