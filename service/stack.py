"""Throwaway local servers on free loopback ports: PostgreSQL, Redis, nginx and replicas of ``kb serve``,
for the tests and ``make deploy-demo``.

Each starts in a folder of its own, with nothing shared with a system
instance, and stops with its context. A server binary that is missing is a
``StackError`` naming the package and the command that installs it
(``make servers``), never a silent skip.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from kb.evaluation.load import free_port

PG_BIN = Path("/usr/lib/postgresql")
INSTALL_HINT = "install it with `make servers` (apt-get install -y postgresql redis-server nginx-light)"


class StackError(RuntimeError):
    pass


def wait_for_port(port: int, timeout_s: float = 15.0, proc: subprocess.Popen | None = None) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise StackError(f"the process on port {port} exited with {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise StackError(f"nothing listens on 127.0.0.1:{port} after {timeout_s:g} s")


def _binary(name: str, package: str) -> str:
    found = shutil.which(name)
    if found:
        return found
    versions = sorted(PG_BIN.glob(f"*/bin/{name}")) if package == "postgresql" else []
    if versions:
        return str(versions[-1])
    raise StackError(f"{name} is missing (Debian package {package}); {INSTALL_HINT}")


def _as_postgres(cmd: list[str]) -> list[str]:
    # initdb and postgres refuse to run as root: run them as the package's own system user.
    return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else cmd


@contextmanager
def postgres() -> Iterator[str]:
    """A fresh cluster; yields its DSN (database ``postgres``, user ``postgres``, no password, loopback only).

    Its folder is made directly under the system temporary folder: the ``postgres`` user must be able to
    reach it, and folders such as pytest's are private to the user who runs the tests."""
    initdb, pg_ctl = _binary("initdb", "postgresql"), _binary("pg_ctl", "postgresql")
    folder = Path(tempfile.mkdtemp(prefix="kb-postgres-"))
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres")
    data, port = folder / "data", free_port()
    _run(_as_postgres([initdb, "-D", str(data), "-A", "trust", "-U", "postgres"]))
    _run(_as_postgres([pg_ctl, "-D", str(data), "-o", f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 "
                       "-c fsync=off", "-l", str(folder / "log"), "-w", "start"]))
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(_as_postgres([pg_ctl, "-D", str(data), "-m", "immediate", "-w", "stop"]), capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


def _run(cmd: list[str]) -> None:
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        raise StackError(f"{' '.join(cmd)} failed: {(done.stderr or done.stdout).strip()[-500:]}")


class RedisServer:
    def __init__(self, folder: Path) -> None:
        self.folder, self.binary = folder, _binary("redis-server", "redis-server")
        self.port = free_port()
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        self.proc = subprocess.Popen([self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                                      "--appendonly", "no", "--dir", str(self.folder)],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for_port(self.port, proc=self.proc)

    def pause(self) -> None:
        """SIGSTOP: the port stays open and every call hangs, as with an overloaded or partitioned server."""
        self.proc.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        self.proc.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGCONT)
            self.proc.terminate()
            self.proc.wait(10)


@contextmanager
def redis(folder: Path) -> Iterator[RedisServer]:
    server = RedisServer(folder)
    server.start()
    try:
        yield server
    finally:
        server.stop()


NGINX_CONF = """
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    upstream kb {{
        # passive health checks: a replica that fails {max_fails} times is left out for {fail_timeout}
{servers}
        keepalive 32;
    }}
    server {{
        listen 127.0.0.1:{port};
        client_max_body_size 128k;
        # feedback: retried on another replica only when the connection failed (a killed replica); a 503
        # (its database is down) goes back to the client and marks no replica as failed
        location /v1/feedback {{
            proxy_pass http://kb;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $remote_addr;
            proxy_next_upstream error timeout non_idempotent;
            proxy_next_upstream_tries {tries};
            proxy_connect_timeout 1s;
        }}
        location / {{
            proxy_pass http://kb;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $remote_addr;
            # a replica that refuses the connection, resets it or answers 502/503 is skipped: the request
            # (POSTs included, as non-idempotent) goes to the next one, at most {tries} tries within 10 s
            proxy_next_upstream error timeout http_502 http_503 non_idempotent;
            proxy_next_upstream_tries {tries};
            proxy_next_upstream_timeout 10s;
            proxy_connect_timeout 1s;
            proxy_read_timeout 30s;
        }}
    }}
}}
"""


def nginx_config(folder: Path, port: int, upstreams: list[int], max_fails: int = 1, fail_timeout: str = "2s") -> str:
    servers = "\n".join(f"        server 127.0.0.1:{p} max_fails={max_fails} fail_timeout={fail_timeout};"
                        for p in upstreams)
    return NGINX_CONF.format(folder=folder, port=port, servers=servers, max_fails=max_fails,
                             fail_timeout=fail_timeout, tries=len(upstreams))


@contextmanager
def nginx(folder: Path, upstreams: list[int], port: int | None = None) -> Iterator[int]:
    """nginx in front of the given loopback ports; yields the port it listens on."""
    binary = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
    if binary is None:
        raise StackError(f"nginx is missing (Debian package nginx-light); {INSTALL_HINT}")
    folder.mkdir(parents=True, exist_ok=True)
    port = port or free_port()
    conf = folder / "nginx.conf"
    conf.write_text(nginx_config(folder, port, upstreams), encoding="utf-8")
    proc = subprocess.Popen([binary, "-c", str(conf), "-p", str(folder), "-g", "daemon off;"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_for_port(port, proc=proc)
        yield port
    finally:
        proc.terminate()
        proc.wait(10)


class Replica:
    """One ``kb serve`` process on a fixed loopback port, which can be killed and started again."""

    def __init__(self, port: int, env: dict[str, str], log_path: Path) -> None:
        self.port, self.env, self.log_path = port, env, log_path
        self.proc: subprocess.Popen | None = None

    def start(self, timeout_s: float = 180.0) -> None:
        env = {**os.environ, **self.env, "KB_HOST": "127.0.0.1", "KB_PORT": str(self.port)}
        log = self.log_path.open("ab")
        self.proc = subprocess.Popen([sys.executable, "-m", "kb.cli", "serve"], env=env, stdout=log, stderr=log,
                                     start_new_session=True)
        log.close()
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise StackError(f"replica on port {self.port} exited: {self.log_path.read_text()[-1500:]}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/readyz", timeout=2) as response:
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.2)
        raise StackError(f"replica on port {self.port} was not ready after {timeout_s:g} s")

    def kill(self) -> None:
        """SIGKILL, no goodbye: what a crash or an OOM kill does."""
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()


@contextmanager
def replicated(folder: Path, replicas: int, env: dict[str, str],
               port: int | None = None) -> Iterator[tuple[int, list[Replica], dict]]:
    """PostgreSQL + Redis + ``replicas`` × ``kb serve`` + nginx in front, all on loopback.

    Yields nginx's port, the replicas and the shared settings (DSN, Redis URL) they were given. The replicas
    believe X-Forwarded-For only from nginx (127.0.0.1), so each client is counted by its own address."""
    with postgres() as dsn, redis(folder / "redis") as cache:
        shared = {"KB_FEEDBACK_DSN": dsn, "KB_REDIS_URL": cache.url, "KB_TRUSTED_PROXIES": '["127.0.0.1"]', **env}
        fleet = [Replica(free_port(), shared, folder / f"replica-{n}.log") for n in range(replicas)]
        try:
            for replica in fleet:
                replica.start()
            with nginx(folder / "nginx", [r.port for r in fleet], port) as front:
                yield front, fleet, shared
        finally:
            for replica in fleet:
                replica.stop()
