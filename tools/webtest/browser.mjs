// The helpers the browser tests share (workday.mjs, quiosque.mjs,
// offline.mjs): Debian's chromium started with the project's fixed flags
// and a fresh profile, Playwright attached over CDP (it never downloads a
// browser of its own), and the page checks every script makes.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { cnpj } from "./documents.mjs";

const require = createRequire(import.meta.url);
const axeSource = fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];
export const POSITION = { latitude: -23.55052, longitude: -46.633309 };

// cfg is the running script's: set once by webtest before any helper runs.
const cfg = { script: "webtest", goTest: "TestWeb", base: "", shots: "", chromiumPath: "" };

// webtest names the script (its log prefix) and the go test that runs it,
// and reads the variables every script needs.
export function webtest(script, goTest) {
  Object.assign(cfg, { script, goTest });
  cfg.base = need("PONTO_URL");
  cfg.shots = need("PONTO_SHOTS");
  cfg.chromiumPath = need("PONTO_CHROMIUM");
  return { base: cfg.base, shots: cfg.shots };
}

export function need(name) {
  const v = process.env[name];
  if (!v) { throw new Error(`${name} is not set (run through go test ./tools/e2e -run ${cfg.goTest})`); }
  return v;
}

export function check(cond, what) {
  if (!cond) { throw new Error("check failed: " + what); }
}

export function log(...args) { console.log(`${cfg.script}:`, ...args); }

// run starts chromium, hands it to the script's steps, and prints
// "<script>: ok" or exits 1 with the failure.
export function run(steps) {
  (async () => {
    fs.mkdirSync(cfg.shots, { recursive: true });
    const { browser, stop } = await startChromium();
    try {
      await steps(browser);
      log("ok");
    } finally {
      await stop();
    }
  })().catch((e) => {
    console.error(`${cfg.script}: FAILED:`, e && e.stack || e);
    process.exit(1);
  });
}

export async function startChromium() {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "ponto-chromium-"));
  const proc = spawn(cfg.chromiumPath, [...FLAGS, `--user-data-dir=${profile}`, "--remote-debugging-port=0", "about:blank"],
    { stdio: ["ignore", "ignore", "pipe"] });
  const ws = await devTools(proc);
  const browser = await chromium.connectOverCDP(ws);
  const exited = new Promise((resolve) => proc.on("exit", resolve));
  const stop = async () => {
    await browser.close().catch(() => {});
    proc.kill("SIGTERM");
    await exited;
    // Chromium's helpers may still be writing to the profile for a moment.
    try {
      fs.rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
    } catch (e) {
      log("profile not removed:", e.message);
    }
  };
  return { browser, stop };
}

// devTools waits for chromium's DevTools address on its stderr.
function devTools(proc) {
  return new Promise((resolve, reject) => {
    let err = "";
    const timer = setTimeout(() => reject(new Error("chromium did not start:\n" + err)), 30000);
    proc.stderr.on("data", (d) => {
      err += d;
      const m = err.match(/DevTools listening on (ws:\/\/\S+)/);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
    proc.on("exit", (code) => { clearTimeout(timer); reject(new Error(`chromium exited (${code}):\n${err}`)); });
  });
}

// newContext is one person's browser: width px wide (the employee's is a
// 360 px phone), with the position granted and set if geolocation. Its
// page collects console errors in page.cspErrors for capture.
export async function newContext(browser, { width, geolocation = false }) {
  const ctx = await browser.newContext({ viewport: { width, height: 800 }, locale: "pt-BR", acceptDownloads: true,
    ...(geolocation ? { geolocation: POSITION, permissions: ["geolocation"] } : {}) });
  if (geolocation) { await ctx.grantPermissions(["geolocation"], { origin: cfg.base }); }
  const page = await ctx.newPage();
  page.cspErrors = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") { page.cspErrors.push(msg.text()); }
  });
  page.on("pageerror", (e) => page.cspErrors.push(String(e)));
  return { ctx, page };
}

// checkAxe runs axe-core on the page: no serious or critical violation.
export async function checkAxe(page, name) {
  await page.evaluate(axeSource);
  const result = await page.evaluate(() => window.axe.run(document, {
    runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
  }));
  const bad = result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  check(bad.length === 0, `${name}: axe found ${bad.length} serious/critical violation(s):\n` +
    bad.map((v) => `  ${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.map((n) => n.target.join(" ")).join("\n    ")}`).join("\n"));
}

export async function screenshot(page, name, width) {
  await page.screenshot({ path: path.join(cfg.shots, `${name}-${width}.png`) });
}

// capture checks a page with axe-core and photographs it at 360 and 1280
// px; the page must not have logged an error (a CSP refusal would).
export async function capture(page, name) {
  await checkAxe(page, name);
  check(page.cspErrors.length === 0, `${name}: console errors: ${page.cspErrors.join(" | ")}`);
  // The viewport grows to the page's height instead of a fullPage
  // screenshot: with this Chromium, fullPage left the page's input
  // coordinates off, and later clicks missed.
  const size = page.viewportSize();
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.setViewportSize({ width, height: Math.max(height, 800) });
    await screenshot(page, name, width);
  }
  await page.setViewportSize(size);
  log("checked and photographed", name);
}

export async function goto(page, p) {
  const resp = await page.goto(cfg.base + p);
  check(resp.ok(), `GET ${p} answered ${resp.status()}`);
}

// navigate clicks what leads to another page and waits for that page.
export async function navigate(page, locator) {
  await Promise.all([page.waitForNavigation({ waitUntil: "load" }), locator.click()]);
}

export async function submit(page, selector = "main form.formulario button[type=submit]") {
  await navigate(page, page.locator(selector));
}

// expectNoError: the page shows none of the errors matched by selector.
export async function expectNoError(page, what, selector = ".aviso.erro") {
  const err = await page.locator(selector).allTextContents();
  check(err.length === 0, `${what}: the page shows an error: ${err.join(" | ")}`);
}

// fillRegistration fills the company's registration form (a new CNPJ,
// the basic plan) without sending it.
export async function fillRegistration(page, nome, { email, password }) {
  await page.fill("#nome", nome);
  await page.fill("#razaoSocial", nome + " Ltda");
  await page.fill("#cnpj", cnpj());
  await page.fill("#dataAbertura", "01/02/2020");
  await page.fill("#email", email);
  await page.fill("#password", password);
  await page.selectOption("#nomeDoPlano", "basic");
}

// fillSchedule fills the schedule form, 08:00 to 17:00 with lunch at
// 12:00, over dias days, without sending it.
export async function fillSchedule(page, dias) {
  await page.fill("#nome", "Comercial");
  await page.fill("#entrada", "08:00");
  await page.fill("#saidaAlmoco", "12:00");
  await page.fill("#retornoAlmoco", "13:00");
  await page.fill("#saida", "17:00");
  await page.fill("#dias", dias);
}
