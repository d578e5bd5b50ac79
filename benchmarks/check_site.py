"""Build the docs site, serve it on 127.0.0.1 and look at it in a real browser.

Headless Chromium (Debian's ``chromium`` package) is driven over the Chrome DevTools
protocol through the small websocket client below (the standard library only: nothing is
added to meldkit's dependencies). For each page it

* loads the page at 1280 px wide and waits for its load event,
* records every console error, uncaught exception and failed request of the site itself
  (requests to other hosts are blocked: the check runs offline, and a page must not need
  them),
* checks that the top navigation tabs fit the window: at most eight, none cut off or
  wrapped, and the tab list does not scroll sideways,
* checks what the page must show (the home page: the install line, the ``meldkit play``
  screen and the ``simulate --plot`` figure, loaded; a game page: its spec table),
* saves a screenshot.

It exits 1 naming each problem, 0 when there is none::

    python benchmarks/check_site.py                      # build, then check
    python benchmarks/check_site.py --site /tmp/site     # check a site already built
    python benchmarks/check_site.py --out shots/         # where the screenshots go

Needs ``mkdocs`` (``python -m pip install ".[docs]"``) and ``chromium`` (``apt-get install
chromium``) or ``CHROMIUM=/path/to/chrome``.
"""

from __future__ import annotations

import argparse
import base64
import functools
import http.server
import json
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WIDTH, HEIGHT = 1280, 900
MAX_TABS = 8

PAGES = {
    "home": "",
    "game": "games/gin_rummy/",
    "api": "api/meldkit/",
    "games-index": "games/",
    "game-ai": "game-ai/",
}
"""The pages looked at (name: path under the site); each gets a screenshot."""

FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--hide-scrollbars", "--mute-audio", "--remote-debugging-port=0",
    f"--window-size={WIDTH},{HEIGHT}",
]

# --------------------------------------------------------------------------- websocket


class WebSocket:
    """A minimal RFC 6455 client: text frames out (masked), frames in (any size,
    fragmented or not), ping answered; enough for the DevTools protocol."""

    def __init__(self, url: str, timeout: float = 60.0):
        assert url.startswith("ws://"), url
        host_port, _, path = url[len("ws://"):].partition("/")
        host, _, port = host_port.partition(":")
        self.sock = socket.create_connection((host, int(port)), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (f"GET /{path} HTTP/1.1\r\nHost: {host_port}\r\nUpgrade: websocket\r\n"
             f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
             "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("the browser closed the websocket handshake")
            head += chunk
        status, _, self._buffer = head.partition(b"\r\n\r\n")
        if b" 101 " not in status.split(b"\r\n", 1)[0]:
            raise ConnectionError(f"websocket handshake refused: {status[:80]!r}")

    def _read(self, n: int) -> bytes:
        while len(self._buffer) < n:
            chunk = self.sock.recv(max(65536, n - len(self._buffer)))
            if not chunk:
                raise ConnectionError("the browser closed the websocket")
            self._buffer += chunk
        data, self._buffer = self._buffer[:n], self._buffer[n:]
        return data

    def send(self, text: str, opcode: int = 1) -> None:
        payload = text.encode() if isinstance(text, str) else text
        n = len(payload)
        head = bytes([0x80 | opcode])
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 65536:
            head += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            head += bytes([0x80 | 127]) + struct.pack(">Q", n)
        mask = os.urandom(4)
        self.sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def recv(self) -> str:
        message = b""
        while True:
            b0, b1 = self._read(2)
            opcode, n = b0 & 0x0F, b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._read(8))[0]
            mask = self._read(4) if b1 & 0x80 else None
            data = self._read(n)
            if mask:
                data = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
            if opcode == 9:  # ping
                self.send(data, opcode=10)
                continue
            if opcode == 8:
                raise ConnectionError("the browser closed the websocket")
            message += data
            if b0 & 0x80:
                return message.decode()

    def close(self) -> None:
        self.sock.close()


class DevTools:
    """One page target: commands with replies, and the events that came meanwhile.

    Requests are intercepted (``Fetch``): those to the site go on, those to any other host
    fail at once and are listed in :attr:`blocked` (the check runs offline, and a page of
    the site must not need another host)."""

    def __init__(self, ws_url: str, base: str):
        self.ws = WebSocket(ws_url)
        self.base = base
        self.origin = base.split("/latest/")[0] + "/"
        self.next_id = 0
        self.events: list[dict] = []
        self.blocked: list[str] = []

    def _send(self, method: str, **params) -> int:
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        return self.next_id

    def _receive(self) -> dict:
        """The next message that is not a paused request (those are answered here)."""
        while True:
            message = json.loads(self.ws.recv())
            if message.get("method") != "Fetch.requestPaused":
                return message
            params = message["params"]
            url = params["request"]["url"]
            if url.startswith(self.origin) or url.startswith("data:"):
                self._send("Fetch.continueRequest", requestId=params["requestId"])
            else:
                self.blocked.append(url)
                self._send("Fetch.failRequest", requestId=params["requestId"],
                           errorReason="BlockedByClient")

    def call(self, method: str, **params):
        my_id = self._send(method, **params)
        while True:
            message = self._receive()
            if message.get("id") == my_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            if "method" in message:
                self.events.append(message)

    def wait_for(self, method: str, timeout: float = 60.0) -> dict:
        self.ws.sock.settimeout(timeout)
        try:
            while True:
                message = self._receive()
                if message.get("method") == method:
                    return message
                if "method" in message:
                    self.events.append(message)
        finally:
            self.ws.sock.settimeout(60)

    def settle(self, seconds: float) -> None:
        """Keep answering requests and collecting events for ``seconds``."""
        deadline = time.monotonic() + seconds
        self.ws.sock.settimeout(0.1)
        try:
            while time.monotonic() < deadline:
                try:
                    message = self._receive()
                except (TimeoutError, socket.timeout):
                    continue
                if "method" in message:
                    self.events.append(message)
        finally:
            self.ws.sock.settimeout(60)

    def evaluate(self, expression: str):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True,
                           awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"script failed: {result['exceptionDetails']}")
        return result["result"].get("value")


# --------------------------------------------------------------------------- the checks

TABS = """(() => {
  const list = document.querySelector('.md-tabs__list');
  if (!list) return {found: false};
  const items = [...list.querySelectorAll('.md-tabs__item')];
  const rects = items.map(i => i.getBoundingClientRect());
  return {
    found: true,
    labels: items.map(i => i.innerText.trim()),
    cut: items.filter((i, k) => rects[k].right > window.innerWidth + 0.5 || rects[k].left < -0.5)
              .map(i => i.innerText.trim()),
    rows: new Set(rects.map(r => Math.round(r.top))).size,
    scrolls: list.scrollWidth > list.clientWidth + 1,
    hidden: items.filter(i => getComputedStyle(i).display === 'none' ||
                              getComputedStyle(i).visibility === 'hidden').length,
    width: window.innerWidth,
  };
})()"""

HOME = """(() => {
  const text = document.body.innerText;
  const img = [...document.images].find(i => i.src.includes('simulate'));
  const screen = document.querySelector('pre.meldkit-screen');
  return {
    install: text.includes('python -m pip install .'),
    pypi: text.includes('python -m pip install meldkit'),
    screen: screen ? screen.innerText.split('\\n').length : 0,
    screen_text: screen ? screen.innerText.slice(0, 300) : '',
    plot: img ? {loaded: img.complete && img.naturalWidth > 0, width: img.naturalWidth}
              : null,
    plot_note: text.includes('draws a figure here when the site is built with matplotlib'),
  };
})()"""

GAME = """(() => {
  const heads = [...document.querySelectorAll('table th')].map(th => th.innerText.trim());
  const rows = [...document.querySelectorAll('table td:first-child')].map(td => td.innerText.trim());
  return {spec_table: heads.includes('At a table of'),
          rows: rows.filter(r => ['Teams', 'Decks (cards in play)', 'Action space (ids)',
                                  'Observation shape'].includes(r))};
})()"""

API = """(() => {
  const headings = [...document.querySelectorAll('.doc-heading')].map(h => h.id);
  const order = ['meldkit.GameState.legal_actions', 'meldkit.GameState.check',
                 'meldkit.GameState.apply', 'meldkit.GameState.view'];
  const at = order.map(id => headings.indexOf(id));
  const typeCells = [...document.querySelectorAll('#meldkit.GameState ~ * td code, td code')]
      .length;
  return {examples: document.querySelectorAll('.language-pycon').length,
          play_loop_order: at.every(i => i >= 0) && at.every((v, i) => i === 0 || at[i - 1] < v),
          order_at: at,
          private_in_nav: [...document.querySelectorAll('.md-nav__link')]
              .map(a => a.innerText.trim()).filter(t => /(^|\\.)_[a-z]/.test(t)),
          type_cells: typeCells};
})()"""


def _serve(site: Path, root: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    """Serve ``site`` as it is published: under ``latest/``, next to the ``versions.json``
    that mike writes (the theme's version selector fetches it: without it every page
    logs a 404)."""
    (root / "latest").symlink_to(site.resolve(), target_is_directory=True)
    (root / "versions.json").write_text(json.dumps(
        [{"version": "latest", "title": "latest", "aliases": []}]), encoding="utf-8")
    handler = functools.partial(_QuietHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/latest/"


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:  # the check prints its own report
        pass


def _chromium() -> str:
    found = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which(
        "chromium-browser") or shutil.which("google-chrome")
    if not found:
        sys.exit("check_site: no chromium (apt-get install chromium, or set CHROMIUM=...)")
    return found


def _start_browser(profile: str) -> tuple[subprocess.Popen, int]:
    proc = subprocess.Popen([_chromium(), *FLAGS, f"--user-data-dir={profile}", "about:blank"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    port_file = Path(profile) / "DevToolsActivePort"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if port_file.exists() and port_file.read_text().strip():
            return proc, int(port_file.read_text().split()[0])
        if proc.poll() is not None:
            sys.exit(f"check_site: chromium exited with {proc.returncode}")
        time.sleep(0.1)
    proc.kill()
    sys.exit("check_site: chromium did not open its DevTools port within 30 s")


def _page_target(port: int) -> str:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10) as r:
        targets = json.load(r)
    return next(t["webSocketDebuggerUrl"] for t in targets if t["type"] == "page")


def _errors(events: list[dict]) -> list[str]:
    """The console errors, uncaught exceptions and failed requests among ``events``
    (requests blocked on purpose left out: :attr:`DevTools.blocked` lists them)."""
    errors = []
    for event in events:
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.exceptionThrown":
            details = params["exceptionDetails"]
            errors.append("exception: " + details.get("exception", {}).get(
                "description", details.get("text", "?")).splitlines()[0])
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            errors.append("console.error: " + " ".join(
                str(a.get("value", a.get("description", ""))) for a in params.get("args", [])))
        elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
            entry = params["entry"]
            if "ERR_BLOCKED_BY_CLIENT" not in entry.get("text", ""):  # blocked on purpose
                errors.append(f"log: {entry.get('text', '')} {entry.get('url', '')}".strip())
        elif method == "Network.loadingFailed" and not params.get(
                "errorText", "").startswith("net::ERR_BLOCKED_BY_CLIENT"):
            errors.append(f"request failed: {params.get('errorText')}")
    return errors


def check_page(tools: DevTools, base: str, name: str, path: str, out: Path) -> list[str]:
    """Load one page, check it, save its screenshot; the problems found."""
    tools.events.clear()
    tools.blocked.clear()
    tools.call("Page.navigate", url=base + path)
    tools.wait_for("Page.loadEventFired")
    tools.settle(1.0)  # the theme's scripts run on (search index, palette)
    problems = [f"{name}: {e}" for e in _errors(tools.events)]
    tabs = tools.evaluate(TABS)
    report = {"page": name, "url": base + path,
              "blocked_other_hosts": sorted(set(tools.blocked))}
    if not tabs["found"]:
        problems.append(f"{name}: no navigation tabs")
    else:
        report["tabs"] = tabs["labels"]
        if len(tabs["labels"]) > MAX_TABS:
            problems.append(f"{name}: {len(tabs['labels'])} tabs (at most {MAX_TABS})")
        if tabs["cut"] or tabs["scrolls"] or tabs["rows"] > 1 or tabs["hidden"]:
            problems.append(f"{name}: the tabs overflow at {tabs['width']} px "
                            f"(cut off: {tabs['cut']}, scrolls: {tabs['scrolls']}, "
                            f"rows: {tabs['rows']}, hidden: {tabs['hidden']})")
    if name == "home":
        home = tools.evaluate(HOME)
        report["home"] = home
        if not home["install"]:
            problems.append("home: no install line (python -m pip install .)")
        if home["screen"] < 10:
            problems.append("home: no meldkit play screen")
        if home["plot"] is None and not home["plot_note"]:
            problems.append("home: neither the simulate --plot figure nor the note")
        if home["plot"] is not None and not home["plot"]["loaded"]:
            problems.append("home: the simulate --plot figure does not load")
    if name == "game":
        game = tools.evaluate(GAME)
        report["game"] = game
        if not game["spec_table"] or len(game["rows"]) < 4:
            problems.append(f"game: no spec table ({game})")
    if name == "api":
        api = tools.evaluate(API)
        report["api"] = api
        if not api["play_loop_order"]:
            problems.append(f"api: GameState's members not in play-loop order ({api['order_at']})")
        if api["private_in_nav"]:
            problems.append(f"api: private modules in the navigation: {api['private_in_nav']}")
    shot = tools.call("Page.captureScreenshot", format="png")
    (out / f"{name}.png").write_bytes(base64.b64decode(shot["data"]))
    if name == "home":  # the whole page too: the play screen and the figure are below
        height = tools.evaluate("document.documentElement.scrollHeight")
        shot = tools.call("Page.captureScreenshot", format="png", captureBeyondViewport=True,
                          clip={"x": 0, "y": 0, "width": WIDTH, "height": min(height, 6000),
                                "scale": 1})
        (out / f"{name}-full.png").write_bytes(base64.b64decode(shot["data"]))
    print(json.dumps(report, indent=1))
    return problems


def build(site: Path) -> None:
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    print(f"building the site into {site} ...", flush=True)
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir",
                    str(site)], cwd=ROOT, env=env, check=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, help="a site already built (default: build one)")
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "meldkit-site",
                        help="where the screenshots go (default: %(default)s)")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        site = args.site
        if site is None:
            site = Path(tmp) / "site"
            build(site)
        root = Path(tmp) / "served"
        root.mkdir()
        server, base = _serve(site, root)
        profile = tempfile.mkdtemp(prefix="check-site-chromium-")
        proc, port = _start_browser(profile)
        problems: list[str] = []
        try:
            tools = DevTools(_page_target(port), base)
            for domain in ("Page", "Runtime", "Log", "Network"):
                tools.call(f"{domain}.enable")
            tools.call("Fetch.enable", patterns=[{"urlPattern": "*"}])
            tools.call("Emulation.setDeviceMetricsOverride", width=WIDTH, height=HEIGHT,
                       deviceScaleFactor=1, mobile=False)
            for name, path in PAGES.items():
                problems += check_page(tools, base, name, path, args.out)
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
            server.shutdown()
            shutil.rmtree(profile, ignore_errors=True)
    for problem in problems:
        print("PROBLEM:", problem)
    print(f"screenshots in {args.out}: " + ", ".join(f"{n}.png" for n in PAGES))
    print("ok: no console errors, the tabs fit" if not problems
          else f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
