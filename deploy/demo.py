"""`make deploy-demo`: the multi-replica layout on this machine, on loopback, until Ctrl-C.

PostgreSQL and Redis (throwaway instances in temporary folders), N replicas
of `kb serve` sharing them, and nginx in front on http://127.0.0.1:8080.
The same pieces, started by systemd on several machines, are described in
deploy/README.md.
"""

from __future__ import annotations

import argparse
import signal
import tempfile
import time
from pathlib import Path

from kb.settings import Settings
from service.stack import StackError, replicated


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replicas", type=int, default=2)
    parser.add_argument("--port", type=int, default=8080, help="nginx's port on 127.0.0.1")
    args = parser.parse_args()
    settings = Settings()
    env = {"KB_INDEX_DIR": str(settings.index_dir), "KB_ACCESS_LOG": "false"}
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(True))
    with tempfile.TemporaryDirectory(prefix="kb-deploy-demo-") as folder:
        try:
            with replicated(Path(folder), args.replicas, env, args.port) as (port, fleet, shared):
                print(f"nginx on http://127.0.0.1:{port}/ in front of replicas on ports "
                      f"{', '.join(str(r.port) for r in fleet)}")
                print(f"feedback: {shared['KB_FEEDBACK_DSN']}   rate limits and cache: {shared['KB_REDIS_URL']}")
                print(f"logs: {folder}   Ctrl-C stops everything")
                while not stop:
                    time.sleep(0.5)
        except KeyboardInterrupt:
            pass
        except StackError as exc:
            print(f"deploy-demo: error: {exc}")
            return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
