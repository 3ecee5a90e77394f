// free_port.mjs: a free TCP port on 127.0.0.1, for a server that must be
// named before it starts (the sandbox registers
// https://127.0.0.1:PORT/callback before the helper listens; nginx takes no
// port 0). Used by the e2e tests and bench/lib.sh. Picked below the kernel's
// ephemeral range: a port from listen(0) is an ephemeral one, and until our
// server binds it any outgoing connection (Chromium's, the helper's to the
// sandbox, another test's) may take it as its source port. That race was
// seen under ctest -j2: "port 43699 on 127.0.0.1 is already in use".
// Tests running at once start from different random points and skip ports
// someone listens on.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

const ephemeralLow = (() => {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32768;
  } catch {
    return 32768;
  }
})();
const portRange = { low: Math.max(1024, ephemeralLow - 12000), high: ephemeralLow - 1 };

function canListenOn(port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

export async function freePort() {
  const span = portRange.high - portRange.low + 1;
  const start = Math.floor(Math.random() * span);
  for (let i = 0; i < span; i += 1) {
    const port = portRange.low + ((start + i) % span);
    if (await canListenOn(port)) return port;
  }
  throw new Error(`no free port on 127.0.0.1 in ${portRange.low}-${portRange.high}`);
}

