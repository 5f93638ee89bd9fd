#!/usr/bin/env python3
"""html_check.py CHROMIUM PAGE NEED SHOT [SMALL]: open PAGE (an HTML file) in
headless Chromium, through the DevTools protocol (a websocket client of
the standard library only), and check that it drew: no script error or
console error, and every <canvas data-cp-chart> of the page marked
"drawn" by Chart.js, with elements (bars, points, cells) and pixels
that are not all blank, and a chart in each section of NEED (ids, comma
separated); when $CP_HTML_MAX_SECONDS is set, that the page loaded and
no chart was left pending within that many seconds of the navigation
(the checks after it are not timed).  Writes a
screenshot of the whole page to SHOT and, with SMALL, one of the top of
the page at half scale (the README's).  Prints one line per chart and
exits 1 on the first failure, with the reason."""
import base64
import http.client
import json
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time

DEADLINE = time.time() + 50


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


class WebSocket:
    """The client side of RFC 6455, enough for DevTools: text frames."""

    def __init__(self, url):
        rest = url.split("://", 1)[1]
        hostport, path = rest.split("/", 1)
        host, port = hostport.split(":")
        self.s = socket.create_connection((host, int(port)), timeout=20)
        key = base64.b64encode(os.urandom(16)).decode()
        self.s.sendall(("GET /%s HTTP/1.1\r\nHost: %s\r\n"
                        "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                        "Sec-WebSocket-Key: %s\r\n"
                        "Sec-WebSocket-Version: 13\r\n\r\n" %
                        (path, hostport, key)).encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.s.recv(1)
            if not chunk:
                fail("websocket handshake: connection closed")
            head += chunk
        if b" 101 " not in head.split(b"\r\n")[0]:
            fail("websocket handshake: %r" % head[:80])
        self.buf = b""

    def send(self, text):
        data = text.encode()
        mask = os.urandom(4)
        n = len(data)
        if n < 126:
            hdr = struct.pack("!BB", 0x81, 0x80 | n)
        elif n < 65536:
            hdr = struct.pack("!BBH", 0x81, 0x80 | 126, n)
        else:
            hdr = struct.pack("!BBQ", 0x81, 0x80 | 127, n)
        body = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
        self.s.sendall(hdr + mask + body)

    def _read(self, n):
        while len(self.buf) < n:
            chunk = self.s.recv(1 << 20)
            if not chunk:
                fail("websocket closed by the browser")
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def recv(self):
        """One message (fragments joined); control frames skipped."""
        msg = b""
        while True:
            b0, b1 = self._read(2)
            n = b1 & 0x7f
            if n == 126:
                n = struct.unpack("!H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack("!Q", self._read(8))[0]
            data = self._read(n)
            op = b0 & 0x0f
            if op == 8:
                fail("websocket closed by the browser")
            if op in (9, 10):
                continue
            msg += data
            if b0 & 0x80:
                return msg.decode()


class Page:
    def __init__(self, ws):
        self.ws = ws
        self.id = 0
        self.events = []

    def call(self, method, **params):
        self.id += 1
        self.ws.send(json.dumps({"id": self.id, "method": method,
                                 "params": params}))
        while time.time() < DEADLINE:
            m = json.loads(self.ws.recv())
            if m.get("id") == self.id:
                if "error" in m:
                    fail("%s: %s" % (method, m["error"]))
                return m.get("result", {})
            self.events.append(m)
        fail("%s: no answer in time" % method)

    def wait(self, method):
        while time.time() < DEADLINE:
            for i, e in enumerate(self.events):
                if e.get("method") == method:
                    return self.events.pop(i)
            self.events.append(json.loads(self.ws.recv()))
        fail("no %s in time" % method)

    def eval(self, expr):
        r = self.call("Runtime.evaluate", expression=expr,
                      returnByValue=True)
        if "exceptionDetails" in r:
            fail("evaluating %s: %s" % (expr[:40], r["exceptionDetails"]))
        return r["result"].get("value")

    def shot(self, path, **clip):
        params = {"format": "png"}
        if clip:
            params["clip"] = clip
        r = self.call("Page.captureScreenshot", **params)
        with open(path, "wb") as f:
            f.write(base64.b64decode(r["data"]))


def stop(proc):
    """Kill chromium's process group and wait until it is gone."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()
    end = time.time() + 10
    while time.time() < end:
        try:
            os.killpg(proc.pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)


def start(chromium, profile):
    args = [chromium, "--headless", "--no-sandbox", "--disable-gpu",
            "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--user-data-dir=" + profile,
            "--remote-debugging-port=0", "--remote-debugging-address="
            "127.0.0.1", "--window-size=1280,1000", "about:blank"]
    # its own process group: chromium's helpers outlive a killed parent
    # and write into the profile after it is removed
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL,
                            start_new_session=True)
    port_file = os.path.join(profile, "DevToolsActivePort")
    while not os.path.exists(port_file) or \
            not open(port_file).read().strip():
        if proc.poll() is not None or time.time() > DEADLINE:
            stop(proc)
            fail("chromium did not start its DevTools server")
        time.sleep(0.1)
    port = int(open(port_file).read().split()[0])
    return proc, port


def page_target(port):
    while time.time() < DEADLINE:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        c.request("GET", "/json/list")
        targets = json.loads(c.getresponse().read())
        pages = [t for t in targets if t.get("type") == "page"]
        if pages:
            return pages[0]["webSocketDebuggerUrl"]
        time.sleep(0.1)
    fail("no page target")


# How many charts are still to draw.
PENDING = """document.querySelectorAll(
  'canvas[data-cp-chart="pending"]').length"""

# Every chart's state and how many of its pixels are not blank.
CHECK = """JSON.stringify(Array.from(document.querySelectorAll(
  'canvas[data-cp-chart]')).map(function (c) {
    var d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    var ink = 0;
    for (var i = 3; i < d.length; i += 4)
      if (d[i] > 0) ink++;
    var h = c.parentNode.querySelector('h3'), ch = Chart.getChart(c);
    var n = 0;
    if (ch)
      ch.data.datasets.forEach(function (d, i) {
        n += ch.getDatasetMeta(i).data.length;
      });
    return {id: c.id, state: c.getAttribute('data-cp-chart'), ink: ink,
            elements: n,
            w: c.width, h: c.height,
            section: c.closest('section').id,
            title: h ? h.textContent : ''};
  }))"""


def check(page, html, need):
    page.call("Runtime.enable")
    page.call("Log.enable")
    page.call("Page.enable")
    t0 = time.time()
    page.call("Page.navigate", url="file://" + os.path.abspath(html))
    page.wait("Page.loadEventFired")
    # opened and drawn: loaded, and no chart still pending
    while page.eval(PENDING) and time.time() < DEADLINE:
        time.sleep(0.02)
    took = time.time() - t0
    time.sleep(0.5)
    errors = []
    for e in page.events:
        m, p = e.get("method"), e.get("params", {})
        if m == "Runtime.exceptionThrown":
            errors.append(p["exceptionDetails"].get("exception", {})
                          .get("description") or p["exceptionDetails"]
                          .get("text"))
        elif m == "Runtime.consoleAPICalled" and p.get("type") in \
                ("error", "assert"):
            errors.append(" ".join(str(a.get("value", a.get("description")))
                                   for a in p.get("args", [])))
        elif m == "Log.entryAdded" and p["entry"].get("level") == "error":
            errors.append(p["entry"].get("text"))
    if errors:
        fail("errors in the console: %s" % errors)
    charts = json.loads(page.eval(CHECK))
    if not charts:
        fail("no chart on the page")
    for c in charts:
        print("# chart %-10s %-50s %s: %d elements, %d of %d pixels" % (
            c["section"], c["title"][:50], c["state"], c["elements"],
            c["ink"], c["w"] * c["h"]))
        if c["state"] != "drawn":
            fail("chart %s (%s) is %s" % (c["id"], c["title"], c["state"]))
        if c["ink"] < 200 or c["elements"] < 1:
            fail("chart %s (%s) is blank" % (c["id"], c["title"]))
    missing = set(need) - {c["section"] for c in charts}
    if missing:
        fail("no chart in section(s) %s" % sorted(missing))
    return charts, took


def main():
    chromium, html, need, shot = sys.argv[1:5]
    small = sys.argv[5] if len(sys.argv) > 5 else None
    profile = tempfile.mkdtemp(prefix="cp-chromium.")
    proc = None
    try:
        proc, port = start(chromium, profile)
        page = Page(WebSocket(page_target(port)))
        charts, took = check(page, html, need.split(","))
        print("# %d charts drawn, page opened and drawn in %.2f s" %
              (len(charts), took))
        limit = float(os.environ.get("CP_HTML_MAX_SECONDS", "0"))
        if limit and took > limit:
            fail("the page took %.2f s to open and draw, limit %g s" %
                 (took, limit))
        height = page.eval("document.documentElement.scrollHeight")
        page.call("Emulation.setDeviceMetricsOverride", width=1280,
                  height=int(height), deviceScaleFactor=1, mobile=False)
        time.sleep(0.3)
        page.shot(shot)
        if small:
            page.shot(small, x=0, y=0, width=1280,
                      height=min(int(height), 1700), scale=0.5)
    finally:
        if proc:
            stop(proc)
        shutil.rmtree(profile, ignore_errors=True)


main()
