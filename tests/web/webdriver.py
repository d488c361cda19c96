# A minimal WebDriver client (the W3C protocol over HTTP, Python's standard library only) for the
# playground's browser test: Debian's chromedriver drives Debian's headless Chromium.
import base64
import json
import os
import socket
import subprocess
import time
import urllib.error
import urllib.request

# Chromium flags that work headless in a container without a display, a sandbox or a network.
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage", "--window-size=1400,1000"]
ELEMENT = "element-6066-11e4-a52e-4f735466cecf"  # the key W3C WebDriver names elements by


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class WebDriverError(RuntimeError):
    pass


class Browser:
    def __init__(self, chromedriver, chromium, profile_dir, log_path):
        self.port = free_port()
        self.log = open(log_path, "w")
        self.proc = subprocess.Popen([chromedriver, f"--port={self.port}"], stdout=self.log, stderr=subprocess.STDOUT)
        self.base = f"http://127.0.0.1:{self.port}"
        deadline = time.time() + 30
        while True:
            try:
                if self._http("GET", "/status")["value"].get("ready"):
                    break
            except (OSError, WebDriverError):
                pass
            if time.time() > deadline:
                raise WebDriverError("chromedriver did not start")
            time.sleep(0.2)
        os.makedirs(profile_dir, exist_ok=True)
        caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": {
            "binary": chromium, "args": CHROMIUM_FLAGS + [f"--user-data-dir={profile_dir}"]}}}}
        self.session = self._http("POST", "/session", caps)["value"]["sessionId"]
        self._http("POST", f"/session/{self.session}/timeouts", {"script": 120000, "pageLoad": 60000})

    def _http(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=180) as r:
                return json.loads(r.read())
        except urllib.error.HTTPError as e:
            text = e.read().decode(errors="replace")
            try:
                v = json.loads(text)["value"]
                raise WebDriverError(f"{v.get('error')}: {v.get('message', '')[:400]}") from None
            except (ValueError, KeyError, AttributeError):
                raise WebDriverError(text[:400]) from None

    def cmd(self, method, path, body=None):
        return self._http(method, f"/session/{self.session}{path}", body)["value"]

    def go(self, url):
        self.cmd("POST", "/url", {"url": url})

    def js(self, script, *args):
        return self.cmd("POST", "/execute/sync", {"script": script, "args": list(args)})

    def js_async(self, script, *args):
        """Runs `script`, which ends by calling its last argument with the value to return."""
        return self.cmd("POST", "/execute/async", {"script": script, "args": list(args)})

    def find(self, css):
        found = self.cmd("POST", "/element", {"using": "css selector", "value": css})
        if ELEMENT not in found:
            raise WebDriverError(f"no element {css}: {found}")
        return found[ELEMENT]

    def click(self, element):
        self.cmd("POST", f"/element/{element}/click", {})

    def pointer_click(self, element):
        """A left click at the element's centre by the mouse (the browser's own input events);
        cheaper than an element click, which first waits for the element to be clickable."""
        self.cmd("POST", "/actions", {"actions": [{
            "type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
            "actions": [{"type": "pointerMove", "duration": 0, "origin": {ELEMENT: element}, "x": 0, "y": 0},
                        {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0}]}]})

    def send_keys(self, element, text):
        self.cmd("POST", f"/element/{element}/value", {"text": text})

    def screenshot(self, element, path):
        """The element's picture (None: the whole window's)."""
        png = self.cmd("GET", f"/element/{element}/screenshot" if element else "/screenshot")
        with open(path, "wb") as f:
            f.write(base64.b64decode(png))

    def wait(self, script, timeout, what):
        """Polls `script` (a JavaScript expression's body returning a value) until it is truthy."""
        deadline = time.time() + timeout
        while True:
            v = self.js(script)
            if v:
                return v
            if time.time() > deadline:
                raise WebDriverError(f"timed out after {timeout} s waiting for {what}")
            time.sleep(0.05)

    def close(self):
        try:
            self.cmd("DELETE", "")
        except (OSError, WebDriverError):
            pass
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()
