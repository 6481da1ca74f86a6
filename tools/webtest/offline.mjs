// The installable app punching off-line, in a real browser (run by
// tools/e2e TestWebOfflinePunches, which makes the company and the
// employee and hands over his session cookie):
//
//   1. the punch page meets Chromium's install criteria (manifest, icons,
//      an active service worker) and registers the device's key;
//   2. off-line (context.setOffline), three punches are kept on the
//      device, and a fourth, which is then tampered with in IndexedDB;
//   3. a reload off-line shows the page and the queue again;
//   4. back on-line, the queue drains by itself: three punches "enviada",
//      the tampered one "recusada" with the advice to see HR.
//
// The Go test then reads the AFD. axe-core checks the page on-line, and
// off-line with the queue shown.
import { POSITION, check, checkAxe, log, need, run, screenshot, webtest } from "./browser.mjs";

const { base } = webtest("offline", "TestWebOfflinePunches");
const cookie = need("PONTO_COOKIE");

// axe checks the page and photographs it as the phone shows it.
async function axe(page, name) {
  await checkAxe(page, name);
  await screenshot(page, name, 360);
  log("axe clean:", name);
}

// queue is the page's list of queued punches: their states in order.
async function queue(page) {
  return page.locator("#fila-lista li").evaluateAll((lis) => lis.map((li) => li.getAttribute("data-estado")));
}

async function waitQueue(page, want, what) {
  const deadline = Date.now() + 30000;
  for (;;) {
    const got = await queue(page);
    if (JSON.stringify(got) === JSON.stringify(want)) { return; }
    if (Date.now() > deadline) { throw new Error(`${what}: queue ${JSON.stringify(got)}, want ${JSON.stringify(want)}`); }
    await page.waitForTimeout(200);
  }
}

run(async (browser) => {
  // The profile's own context: a new one would be incognito, where
  // Chromium never offers to install an app.
  const ctx = browser.contexts()[0];
  await ctx.grantPermissions(["geolocation"], { origin: base });
  await ctx.setGeolocation(POSITION);
  const url = new URL(base);
  await ctx.addCookies([{ name: "ponto", value: cookie, domain: url.hostname, path: "/", httpOnly: true, sameSite: "Strict" }]);
  const page = await ctx.newPage();
  await page.setViewportSize({ width: 360, height: 800 });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => log("console", m.type(), m.text()));

  // 1. Installable: the manifest, its icons, an active service worker.
  let resp = await page.goto(base + "/ponto");
  check(resp.ok(), "GET /ponto answered " + resp.status());
  const href = await page.locator('link[rel="manifest"]').getAttribute("href");
  check(href === "/manifest.webmanifest", "the punch page links the manifest: " + href);
  const manifest = await (await page.request.get(base + href)).json();
  check(manifest.display === "standalone" && manifest.start_url === "/ponto", "manifest: " + JSON.stringify(manifest));
  check(manifest.icons.some((i) => i.type === "image/png" && i.sizes === "192x192") &&
    manifest.icons.some((i) => i.type === "image/svg+xml"), "manifest icons: PNG 192 and SVG");
  const png = await page.request.get(base + "/icone-192.png");
  check(png.ok() && (await png.body()).length > 100, "the PNG icon is served");
  const active = await page.evaluate(() => navigator.serviceWorker.ready.then((r) => r.active && r.active.state));
  check(active === "activated" || active === "activating", "the service worker is active: " + active);
  await page.waitForSelector("#fila[data-pronta=true]", { state: "attached" });
  // Load the page once under the worker's control, so that it keeps it.
  await page.reload();
  await page.waitForSelector("#fila[data-pronta=true]", { state: "attached" });
  check(await page.evaluate(() => !!navigator.serviceWorker.controller), "the page is controlled by the service worker");
  const cdp = await ctx.newCDPSession(page);
  const { installabilityErrors } = await cdp.send("Page.getInstallabilityErrors");
  check(installabilityErrors.length === 0, "install criteria: " + JSON.stringify(installabilityErrors));
  log("installable: manifest, icons, service worker");
  await axe(page, "ponto-pwa");

  // 2. Off-line: three punches, kept; a reload shows the page and them.
  await ctx.setOffline(true);
  for (let i = 1; i <= 3; i++) {
    await page.click("#botao-bater");
    await waitQueue(page, Array(i).fill("aguardando conexão"), `off-line punch ${i}`);
    await page.waitForTimeout(1100); // distinct seconds
  }
  // 3. A fourth punch, tampered with: its time moved by a minute.
  await page.click("#botao-bater");
  await waitQueue(page, Array(4).fill("aguardando conexão"), "the fourth punch");
  await page.evaluate(() => new Promise((ok, fail) => {
    const req = indexedDB.open("ponto", 1);
    req.onsuccess = () => {
      const db = req.result, t = db.transaction("fila", "readwrite"), s = t.objectStore("fila");
      const all = s.getAll();
      all.onsuccess = () => {
        const last = all.result.sort((a, b) => (a.horario < b.horario ? -1 : 1))[3];
        last.horario = new Date(Date.parse(last.horario) + 60000).toISOString();
        s.put(last);
      };
      t.oncomplete = () => { db.close(); ok(); };
      t.onerror = () => fail(t.error);
    };
    req.onerror = () => fail(req.error);
  }));
  // A reload while off-line: the page (from the service worker) and the
  // queue (from IndexedDB) are there.
  await page.reload();
  await page.waitForSelector("#fila:not([hidden])");
  await waitQueue(page, Array(4).fill("aguardando conexão"), "after the reload off-line");
  check(await page.locator("#botao-bater").isVisible(), "the punch button is there off-line");
  log("four punches queued off-line (one tampered with); the page and the queue survive a reload");
  await axe(page, "ponto-offline-fila");

  // 4. On-line: the queue drains by itself.
  await ctx.setOffline(false);
  await waitQueue(page, ["enviada", "enviada", "enviada", "recusada"], "after the connection returned");
  const refused = await page.locator("#fila-lista li.recusada").textContent();
  check(/assinatura/.test(refused) && /Procure o RH/.test(refused), "the tampered punch is refused, with advice: " + refused);
  await axe(page, "ponto-fila-enviada");

  // The profile lists the device, to be revoked if the phone is lost.
  resp = await page.goto(base + "/ponto/perfil");
  check(resp.ok(), "GET /ponto/perfil answered " + resp.status());
  check(await page.locator("section[aria-labelledby=aparelhos-titulo] li").count() === 1, "the profile lists this device");
  await axe(page, "ponto-perfil-aparelhos");
  check(errors.length === 0, "page errors: " + errors.join(" | "));
});
