# `keli serve` as the tests of the game site run it (tests/serve/serve_test.py, tests/web/site_test.py):
# on a loopback port with a database and a site folder; the port it takes at its first start is
# kept, so that a restart is found again where the clients left it. Its standard error goes to a
# file beside the database (read when it fails), never to a pipe that could fill.
import signal
import subprocess


class KeliServe:
    def __init__(self, keli, db, site, engine="interp"):
        self.keli, self.db, self.site, self.engine = keli, db, site, engine
        self.port, self.p, self.log = 0, None, db + ".serve.log"

    def start(self):
        """Starts the server (port 0 the first time: a free one) and waits for it to listen."""
        with open(self.log, "a") as err:
            self.p = subprocess.Popen([self.keli, "serve", "--port", str(self.port), "--db", self.db, "--site",
                                       self.site, "--engine", self.engine], stdout=subprocess.PIPE, stderr=err,
                                      text=True)
        line = self.p.stdout.readline()
        if "listening on http://127.0.0.1:" not in line:
            self.p.kill()
            self.p.wait()
            raise AssertionError(f"keli serve did not start: {line!r} {self.errors()}")
        self.port = int(line.rsplit(":", 1)[1].strip().strip("/"))
        return self

    def stop(self):
        """SIGTERM; the server must stop cleanly (status 0)."""
        self.p.send_signal(signal.SIGTERM)
        if self.p.wait(timeout=30) != 0:
            raise AssertionError(f"keli serve stopped with status {self.p.returncode}: {self.errors()}")

    def running(self):
        return self.p is not None and self.p.poll() is None

    def errors(self):
        try:
            with open(self.log) as f:
                return f.read()[-2000:]
        except OSError:
            return ""

    def url(self, path=""):
        return f"http://127.0.0.1:{self.port}/{path}"
